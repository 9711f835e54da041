// The SPA's one HTTP client: calls under /api with the bearer token, envelopes, and HTTP 401 and 503 handled once (product.md §8).
import type { Envelope } from "../../common/api";
import { TOAST_SIGNED_IN_MS } from "../../common/constants";
import { isOutageCode } from "../../common/errors";
import i18n, { currentLanguage } from "../i18n";
import { AppSwal } from "../lib/dialogs";
import { navigateTo } from "../lib/navigation";
import { warn } from "../lib/notify";
import { clearSession, readToken } from "../lib/session";
import { ApiError } from "./errors";
import type { Failure } from "./failureAction";
import { queryClient } from "./queryClient";

/**
 * The one HTTP client of the SPA: no page calls fetch itself. Every call goes to `/api`, carries
 * `Authorization: Bearer <token>` when a token is stored (product.md §7), and maps HTTP 401 and 503
 * once, here (product.md §8).
 */

const API_BASE = "/api";
const LOGOUT_TIMEOUT_MS = 5000;

export interface RequestOptions {
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  /** Query string parameters, appended as `?a=1&b=2`. */
  query?: Record<string, string | number>;
  /** Form-encoded (URLSearchParams) by default; multipart (FormData) where the spec says so. */
  body?: URLSearchParams | FormData;
  /**
   * A JSON body instead (`Content-Type: application/json`), for contracts with nested values
   * and nulls (the admin console's model connections); `body` is ignored when this is given.
   */
  json?: unknown;
  /** Bearer token to send instead of the stored one (logout runs after local data is gone). */
  token?: string;
  /**
   * Whether HTTP 401 ends the session (product.md §8). Public sign-in calls turn this off: there a
   * 401 is the answer to wrong credentials, not an expired session.
   */
  expireOn401?: boolean;
  /** Whether HTTP 503 opens the maintenance dialog (product.md §8). */
  maintenanceOn503?: boolean;
  signal?: AbortSignal;
}

/** Whether `value` has the shape of a server envelope (`{success, ...}`). */
export function isEnvelope(value: unknown): value is Envelope {
  return typeof value === "object" && value !== null && "success" in value;
}

/** `/api<path>`, with `query` appended as a query string when given. */
export function buildUrl(path: string, query: RequestOptions["query"]): string {
  if (query === undefined) return `${API_BASE}${path}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  return `${API_BASE}${path}?${params.toString()}`;
}

/** What an answer said besides its envelope: its HTTP status and its `Retry-After` (seconds). */
interface AnswerInfo {
  status: number;
  retryAfterSeconds?: number;
}

/** The answer each envelope arrived with, so `ensureSuccess` and `failureOf` can tell it. */
const envelopeAnswers = new WeakMap<Envelope, AnswerInfo>();

/**
 * Seconds to wait from a `Retry-After` header (RFC 9110 §10.2.3): a number of seconds, or an
 * HTTP date (counted from `now`, ms since the epoch, never below 0). Undefined when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Remembers the answer `envelope` came in (status; `Retry-After` on a 429, rate limits only) for
 * `ensureSuccess` and `failureOf`. Used by every path that reads an envelope (apiRequest, streams).
 */
export function rememberAnswer(envelope: Envelope, response: Response): void {
  const retryAfterSeconds =
    response.status === 429 ? parseRetryAfter(response.headers.get("Retry-After")) : undefined;
  envelopeAnswers.set(
    envelope,
    retryAfterSeconds === undefined
      ? { status: response.status }
      : { status: response.status, retryAfterSeconds },
  );
}

/**
 * A refused envelope as a `Failure` for `failureAction`: its message, code and page, with the
 * HTTP status and `Retry-After` seconds it arrived with when the client read them.
 */
export function failureOf(envelope: Envelope): Failure {
  const answer = envelopeAnswers.get(envelope);
  return {
    message: envelope.message,
    code: envelope.code,
    page: envelope.page,
    status: answer?.status,
    retryAfterSeconds: answer?.retryAfterSeconds,
  };
}

/**
 * The one `fetch` of the SPA: adds `Accept`, `Accept-Language` (the UI language: the
 * server answers in it) and `Authorization: Bearer <token>` (product.md §7; the stored token unless
 * `token` is given). Throws `ApiError('network')` when no answer arrives.
 */
export async function send(
  url: string,
  init: { method?: string; body?: BodyInit; signal?: AbortSignal; accept?: string; token?: string },
): Promise<Response> {
  const token = init.token ?? readToken()?.token;
  const headers: Record<string, string> = { "Accept-Language": currentLanguage() };
  if (init.accept !== undefined) headers.Accept = init.accept;
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(url, { method: init.method ?? "GET", headers, body: init.body, signal: init.signal });
  } catch (error) {
    throw new ApiError(error instanceof Error ? error.message : "Network error", "network");
  }
}

/** Which of the product.md §8 answers a call lets the client handle (both on by default). */
interface StatusPolicy {
  expireOn401?: boolean;
  maintenanceOn503?: boolean;
}

/**
 * The one place that answers HTTP 401 and 503 (product.md §8): 401 ends the session (toast, back to
 * `/`) and 503 opens the maintenance dialog, each then thrown as `ApiError` of kind `session` or
 * `maintenance` (with the envelope's message and code). A 503 with an outage code
 * (`isOutageCode`: the database, Redis or the storage is briefly down) is no maintenance: it
 * returns normally, so the caller shows the envelope's sentence where the call failed and the
 * user can try again, still signed in. Any other status returns normally.
 */
export function handleSessionStatus(status: number, payload: unknown, policy: StatusPolicy = {}): void {
  const envelope = isEnvelope(payload) ? payload : null;
  if (status === 401 && policy.expireOn401 !== false) {
    expireSession();
    throw ApiError.fromEnvelope(envelope, 401, i18n.t("common:errors.unauthorized"), "session");
  }
  if (status === 503 && policy.maintenanceOn503 !== false && !isOutageCode(envelope?.code)) {
    void showMaintenance(envelope?.message ?? "");
    throw ApiError.fromEnvelope(envelope, 503, i18n.t("common:errors.unavailable"), "maintenance");
  }
}

/**
 * Sends one request and returns the parsed envelope, whatever its `success` (HTTP 4xx/5xx
 * bodies use the same envelope). Throws `ApiError` of kind `network` when there is no JSON
 * envelope, `session` on 401 and `maintenance` on 503 after handling them (product.md §8).
 */
export async function apiRequest<T extends Envelope = Envelope>(
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const { method = "GET", query, signal, token } = options;
  const body =
    options.json === undefined
      ? options.body
      : new Blob([JSON.stringify(options.json)], { type: "application/json" });
  const response = await send(buildUrl(path, query), {
    method,
    body,
    signal,
    token,
    accept: "application/json",
  });
  let payload: unknown = null;
  try {
    payload = await response.json();
  } catch {
    payload = null;
  }
  handleSessionStatus(response.status, payload, options);
  if (!isEnvelope(payload)) {
    throw new ApiError(`HTTP ${response.status}`, "network", { status: response.status });
  }
  rememberAnswer(payload, response);
  return payload as T;
}

/**
 * Returns the envelope when `success` is 1; otherwise throws `ApiError('envelope')` with the
 * server's message, its `code` and `page`, the HTTP status it came with and, on a 429, the
 * seconds of its `Retry-After`.
 */
export function ensureSuccess<T extends Envelope>(envelope: T): T {
  if (envelope.success !== 1) {
    const answer = envelopeAnswers.get(envelope);
    throw ApiError.fromEnvelope(
      envelope,
      answer?.status,
      i18n.t("common:errors.requestFailed"),
      "envelope",
      answer?.retryAfterSeconds,
    );
  }
  return envelope;
}

/**
 * Ends the session (product.md §4): removes the local token and user first, tells the server
 * (POST /auth/logout with `token`), then navigates to `target` (default `/`). A failed
 * server call is only logged.
 */
export async function endSession(target = "/"): Promise<void> {
  const token = readToken();
  clearSession();
  queryClient.clear();
  if (token !== null) {
    try {
      await apiRequest("/auth/logout", {
        method: "POST",
        body: new URLSearchParams({ token: token.token }),
        token: token.token,
        expireOn401: false,
        maintenanceOn503: false,
        signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS),
      });
    } catch (error) {
      console.error("logout", error);
    }
  }
  navigateTo(target);
}

/** product.md §8: a 401 from any call: 2-second toast, local session removed, back to `/`. */
function expireSession(): void {
  clearSession();
  queryClient.clear();
  warn(i18n.t("common:session.expired"), TOAST_SIGNED_IN_MS, "session-expired");
  navigateTo("/");
}

let maintenanceOpen = false;

/** product.md §8: a 503 from any call: 'Oops...' info dialog, then logout and go to /maintenance. */
async function showMaintenance(message: string): Promise<void> {
  if (maintenanceOpen) return;
  maintenanceOpen = true;
  try {
    await AppSwal.fire({
      icon: "info",
      titleText: i18n.t("common:dialog.oops"),
      text: message || i18n.t("common:maintenance.message"),
      confirmButtonText: i18n.t("common:actions.close"),
    });
    await endSession("/maintenance");
  } finally {
    maintenanceOpen = false;
  }
}
