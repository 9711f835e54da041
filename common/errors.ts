// The API's error codes (product.md §8): each stable code, its HTTP status and the outage codes (the failure envelope `FailBody` is in common/api/envelope.ts).
/**
 * The error contract of the API: every failure the server answers carries one of these
 * stable codes in its envelope (`{ success: 0, message, code, page? }`) and in the `error` event
 * of a reply stream. The HTTP status is derived from the code through `ERROR_STATUS`, so one code
 * always answers the same status. The message is for people; the code is for programs (the SPA
 * decides what to do from it, never from the wording). One grammar: lower-case words joined by
 * underscores, the family first where there is one (`plan_images`, `oauth_state`).
 */
export const ERROR_STATUS = {
  // Generic families, the default codes of the server's helpers.
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit: 429,
  internal: 500,

  // Request shape (server/http: validation, uploads, transport limits).
  bad_input: 400,
  bad_multipart: 400,
  bad_image: 400,
  image_too_large: 413,
  recording_too_large: 413,
  // A chat file to import (SillyTavern JSONL) that cannot be read, or is too large.
  bad_chat_file: 400,
  chat_file_too_large: 413,

  // Sign-in, devices and sessions (product.md §6). The two refusals of a sign-in form answer
  // HTTP 200 with success 0, as the spec's login does: the SPA shows the message on the form.
  invalid_credentials: 200,
  invalid_device: 200,
  account_blocked: 403,
  demo_unknown: 404,
  demo_off: 403,
  demo_device: 403,
  device_unknown: 404,
  wrong_password: 400,
  reset_code: 400,
  not_admin: 403,

  // Accounts of a self-hosted server (product.md §2): the owner set-up, invitations, sign-up.
  setup_token: 404,
  registration_closed: 403,
  invitation_invalid: 400,
  signup_code: 400,
  email_taken: 409,

  // OAuth sign-in.
  oauth_binding: 400,
  oauth_state: 400,
  oauth_code: 400,
  oauth_unconfigured: 400,

  // Plans and payments. What the pricing page shows in place answers 200 with success
  // 0 (and a page to open where there is one).
  payments_off: 200,
  webhook_off: 400,
  bad_signature: 400,
  demo_account: 200,
  not_sold_online: 200,
  already_subscribed: 200,
  no_subscription: 200,

  // The free subscription is offered only where its video is configured.
  free_subscribe_off: 404,

  // Plan flags and limits (product.md §9).
  plan_images: 403,
  plan_photos: 403,
  plan_photo: 403,
  plan_appearance: 403,
  plan_uncensored: 403,
  character_limit: 403,
  last_character: 403,
  group_full: 403,
  quota_reached: 429,

  // Content rules (product.md §9).
  content_minors: 400,
  age_unconfirmed: 403,

  // Chats.
  no_character: 404,
  continue_limit: 400,
  // A character cannot be let write first (check-ins) while no language model is ready.
  checkins_no_model: 409,
  // Admin: "Back up now" while a backup is running.
  backup_running: 409,

  // Engines that are not configured answer 200 with success 0 (the SPA shows the reason in
  // place); engines that fail answer 502.
  llm_unavailable: 200,
  tts_unavailable: 200,
  stt_unavailable: 200,
  images_unavailable: 200,
  tts_failed: 502,
  stt_failed: 502,

  // Outages (server/http/outages.ts): an engine the server stands on is down or did not answer
  // in time. Answered with `Retry-After` (seconds) and a sentence saying to try again shortly.
  // Unlike a 503 without one of these codes (maintenance), the SPA keeps the session: it shows
  // the message and lets the user retry. The engine is in the code, for the SPA and for people
  // reading an answer; what the user can do is the same for all three.
  database_unavailable: 503,
  redis_unavailable: 503,
  storage_unavailable: 503,
} as const satisfies Record<string, number>;

/** A stable error code of the API: a key of `ERROR_STATUS`. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The codes of an outage (HTTP 503 with `Retry-After`): a brief failure of the database, Redis or
 * the file storage, after which the same request may succeed.
 */
export const OUTAGE_CODES = [
  "database_unavailable",
  "redis_unavailable",
  "storage_unavailable",
] as const satisfies readonly ErrorCode[];

/** An outage code: one of `OUTAGE_CODES`. */
export type OutageCode = (typeof OUTAGE_CODES)[number];

/**
 * True when `value` (e.g. the `code` of an envelope read from the wire) is an outage code: the
 * request may be retried in a few seconds, and the session stays as it is.
 */
export function isOutageCode(value: unknown): value is OutageCode {
  return typeof value === "string" && (OUTAGE_CODES as readonly string[]).includes(value);
}

/** True when `value` is one of the API's error codes (for reading an envelope from the wire). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_STATUS, value);
}

/**
 * The code of a failure that was not raised with one (a framework error, an unknown status):
 * the generic code of its status family.
 */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 413:
      return "payload_too_large";
    case 415:
      return "unsupported_media_type";
    case 429:
      return "rate_limit";
    default:
      return status >= 500 ? "internal" : "bad_request";
  }
}
