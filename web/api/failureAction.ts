// What the SPA does about a refused call, decided from the server's error code (never its wording).
import { ApiError } from "./errors";

/** The page the app opens for plans and add-ons when a quota refusal names none. */
export const PLAN_PAGE = "/pricing";

/** The query key of GET /chat/capabilities, whose `chat` reason the chat banner shows. */
export const CAPABILITIES_QUERY_KEY = ["chat-capabilities"] as const;

/**
 * What to do about a failure:
 * - `plan`: the message quota is used up: show `message` and open `page` (the pricing page);
 * - `signIn`: the session ended (401): the API client already went to sign-in, stay quiet;
 * - `modelMissing`: no language model is ready: show `message` and refresh the chat banner;
 * - `wait`: rate limited: show `message`; `retryAfterSeconds` when the server said how long;
 * - `show`: anything else: show `message` where the call failed.
 */
export type FailureAction =
  | { kind: "plan"; page: string; message: string }
  | { kind: "signIn" }
  | { kind: "modelMissing"; message: string }
  | { kind: "wait"; message: string; retryAfterSeconds?: number }
  | { kind: "show"; message: string };

/** A refusal as the SPA sees it: a failure envelope (a reply with success 0) or an `ApiError`. */
export interface Failure {
  message?: string;
  code?: string;
  page?: string;
  status?: number;
  /** The `Retry-After` of the answer, seconds, when it was read. */
  retryAfterSeconds?: number;
}

/** True for the code of a refusal at the user's message quota (429 "quota_reached"). */
export function isQuotaCode(code: string | undefined): boolean {
  return code === "quota_reached";
}

/**
 * The action for `failure` (an envelope with success 0, or an `ApiError`), from its `code`:
 * "quota_reached" → `plan` (its `page`, else the pricing page); "unauthorized" or a 401 →
 * `signIn`; "llm_unavailable" → `modelMissing`; "rate_limit" → `wait`. A refusal without a
 * code that names a `page` (a server older than the error contract) is followed as `plan`.
 * `fallback` is the message when the server sent none.
 */
export function failureAction(failure: Failure | ApiError, fallback: string): FailureAction {
  const message = failure.message || fallback;
  const { code, page, status } = failure;
  if (isQuotaCode(code)) return { kind: "plan", page: page || PLAN_PAGE, message };
  if (
    code === "unauthorized" ||
    status === 401 ||
    (failure instanceof ApiError && failure.kind === "session")
  ) {
    return { kind: "signIn" };
  }
  if (code === "llm_unavailable") return { kind: "modelMissing", message };
  if (code === "rate_limit") {
    const seconds = "retryAfterSeconds" in failure ? failure.retryAfterSeconds : undefined;
    return seconds === undefined
      ? { kind: "wait", message }
      : { kind: "wait", message, retryAfterSeconds: seconds };
  }
  if (code === undefined && page) return { kind: "plan", page, message };
  return { kind: "show", message };
}

/**
 * An error thrown by `web/api/*` as `failureAction`'s input: null when the client already told the
 * user (401, 503 maintenance: `ApiError.handled`); the error itself when the server refused
 * (kind `envelope`: its message, code, page and `Retry-After`); otherwise (no answer, not an
 * envelope, not an `ApiError`) an empty failure, so the caller's own sentence (`fallback`) shows.
 */
export function refusalOf(error: unknown): Failure | ApiError | null {
  if (error instanceof ApiError && error.handled) return null;
  if (error instanceof ApiError && error.kind === "envelope") return error;
  return {};
}
