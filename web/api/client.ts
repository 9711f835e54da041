import type { Envelope } from "../../common/api";
import { TOAST_SIGNED_IN_MS } from "../../common/constants";
import { AppSwal } from "../lib/dialogs";
import { navigateTo } from "../lib/navigation";
import { warn } from "../lib/notify";
import { clearSession, readToken } from "../lib/session";
import { ApiError } from "./errors";
import { queryClient } from "./queryClient";

/**
 * The one HTTP client of the SPA (house style 7). Every call goes to `/api`, carries
 * `Authorization: Bearer <token>` when a token is stored (spec 7), and maps HTTP 401 and 503
 * once, here (spec 8).
 */

const API_BASE = "/api";
const LOGOUT_TIMEOUT_MS = 5000;

export interface RequestOptions {
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  /** Query string parameters, appended as `?a=1&b=2`. */
  query?: Record<string, string | number>;
  /** Form-encoded (URLSearchParams) by default; multipart (FormData) where the spec says so. */
  body?: URLSearchParams | FormData;
  /** Bearer token to send instead of the stored one (logout runs after local data is gone). */
  token?: string;
  /**
   * Whether HTTP 401 ends the session (spec 8). Public sign-in calls turn this off: there a
   * 401 is the answer to wrong credentials, not an expired session.
   */
  expireOn401?: boolean;
  /** Whether HTTP 503 opens the maintenance dialog (spec 8). */
  maintenanceOn503?: boolean;
  signal?: AbortSignal;
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === "object" && value !== null && "success" in value;
}

function buildUrl(path: string, query: RequestOptions["query"]): string {
  if (query === undefined) return `${API_BASE}${path}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  return `${API_BASE}${path}?${params.toString()}`;
}

/** The HTTP status each envelope arrived with, so `ensureSuccess` can put it on its error. */
const envelopeStatus = new WeakMap<Envelope, number>();

/**
 * The one `fetch` of the SPA: adds `Accept` and `Authorization: Bearer <token>` (spec 7; the
 * stored token unless `token` is given). Throws `ApiError('network')` when no answer arrives.
 */
async function send(
  url: string,
  init: { method?: string; body?: BodyInit; signal?: AbortSignal; accept?: string; token?: string },
): Promise<Response> {
  const token = init.token ?? readToken()?.token;
  const headers: Record<string, string> = {};
  if (init.accept !== undefined) headers.Accept = init.accept;
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(url, { method: init.method ?? "GET", headers, body: init.body, signal: init.signal });
  } catch (error) {
    throw new ApiError(error instanceof Error ? error.message : "Network error", "network");
  }
}

/** Which of the spec 8 answers a call lets the client handle (both on by default). */
interface StatusPolicy {
  expireOn401?: boolean;
  maintenanceOn503?: boolean;
}

/**
 * The one place that answers HTTP 401 and 503 (spec 8): 401 ends the session (toast, back to
 * `/`) and 503 opens the maintenance dialog, each then thrown as `ApiError` of kind `session` or
 * `maintenance` (with the envelope's message and code). Any other status returns normally.
 */
function handleSessionStatus(status: number, payload: unknown, policy: StatusPolicy = {}): void {
  const envelope = isEnvelope(payload) ? payload : null;
  if (status === 401 && policy.expireOn401 !== false) {
    expireSession();
    throw ApiError.fromEnvelope(envelope, 401, "Unauthorized", "session");
  }
  if (status === 503 && policy.maintenanceOn503 !== false) {
    void showMaintenance(envelope?.message ?? "");
    throw ApiError.fromEnvelope(envelope, 503, "Service unavailable", "maintenance");
  }
}

/**
 * Sends one request and returns the parsed envelope, whatever its `success` (HTTP 4xx/5xx
 * bodies use the same envelope). Throws `ApiError` of kind `network` when there is no JSON
 * envelope, `session` on 401 and `maintenance` on 503 after handling them (spec 8).
 */
export async function apiRequest<T extends Envelope = Envelope>(
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const { method = "GET", query, body, signal, token } = options;
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
  envelopeStatus.set(payload, response.status);
  return payload as T;
}

/**
 * Returns the envelope when `success` is 1; otherwise throws `ApiError('envelope')` with the
 * server's message, its `code` and `page` and the HTTP status it came with.
 */
export function ensureSuccess<T extends Envelope>(envelope: T): T {
  if (envelope.success !== 1) {
    throw ApiError.fromEnvelope(envelope, envelopeStatus.get(envelope), "Request failed");
  }
  return envelope;
}

/**
 * Ends the session (spec 4): removes the local token and user first, tells the server
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

/** spec 8: a 401 from any call: 2-second toast, local session removed, back to `/`. */
function expireSession(): void {
  clearSession();
  queryClient.clear();
  warn("Session expired, please login again.", TOAST_SIGNED_IN_MS, "session-expired");
  navigateTo("/");
}

let maintenanceOpen = false;

/** spec 8: a 503 from any call: 'Oops...' info dialog, then logout and go to /maintenance. */
async function showMaintenance(message: string): Promise<void> {
  if (maintenanceOpen) return;
  maintenanceOpen = true;
  try {
    await AppSwal.fire({
      icon: "info",
      titleText: "Oops...",
      text: message || "We are working on it. Please try again later.",
      confirmButtonText: "Close",
    });
    await endSession("/maintenance");
  } finally {
    maintenanceOpen = false;
  }
}

/** One server-sent event: its `event:` name and its `data:` parsed as JSON. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/** Parses the complete `event:`/`data:` blocks of `buffer`; returns them and the unfinished rest. */
function parseEventBlocks(buffer: string): { events: StreamEvent[]; rest: string } {
  const blocks = buffer.split("\n\n");
  const rest = blocks.pop() ?? "";
  const events: StreamEvent[] = [];
  for (const block of blocks) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    if (data.length === 0) continue;
    try {
      events.push({ event, data: JSON.parse(data.join("\n")) });
    } catch {
      events.push({ event, data: data.join("\n") });
    }
  }
  return { events, rest };
}

/**
 * POSTs `body` asking for server-sent events (`Accept: text/event-stream`, bearer token as in
 * `apiRequest`) and calls `onEvent` for every event as it arrives (fetch + stream reader,
 * since EventSource cannot POST). Returns the last event: `done` or `error` for a stream.
 * When the server answers plain JSON instead (e.g. 429 at the daily limit), that envelope is
 * returned as a `done` event (success 1) or an `error` event. 401 and 503 are mapped like
 * `apiRequest` (spec 8). Throws `ApiError('network')` when the connection fails or the
 * stream ends without a final event.
 */
export async function apiStream(
  path: string,
  body: URLSearchParams | FormData,
  onEvent: (event: StreamEvent) => void,
  signal?: AbortSignal,
): Promise<StreamEvent> {
  const response = await send(buildUrl(path, undefined), {
    method: "POST",
    body,
    signal,
    accept: "text/event-stream",
  });
  const isStream = (response.headers.get("Content-Type") ?? "").includes("text/event-stream");
  if (!isStream || response.body === null) {
    const payload: unknown = await response.json().catch(() => null);
    handleSessionStatus(response.status, payload);
    if (!isEnvelope(payload)) {
      throw new ApiError(`HTTP ${response.status}`, "network", { status: response.status });
    }
    const final = { event: payload.success === 1 ? "done" : "error", data: payload };
    onEvent(final);
    return final;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let last: StreamEvent | null = null;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const parsed = parseEventBlocks(buffer + value.replace(/\r\n/g, "\n"));
      buffer = parsed.rest;
      for (const event of parsed.events) {
        if (event.event === "done" || event.event === "error") last = event;
        onEvent(event);
      }
    }
  } catch (error) {
    throw new ApiError(error instanceof Error ? error.message : "Stream interrupted", "network");
  }
  if (last === null) throw new ApiError("The answer ended early.", "network");
  return last;
}

/** The file name of a `Content-Disposition: attachment; filename="..."` header, or `fallback`. */
function attachmentName(header: string | null, fallback: string): string {
  const match = header ? /filename="?([^";]+)"?/i.exec(header) : null;
  return match?.[1]?.trim() || fallback;
}

/**
 * Downloads a file with GET and the bearer token (e.g. a character card), mapping 401 and 503
 * like `apiRequest`. Returns the bytes and the file name from `Content-Disposition`.
 * Throws `ApiError('envelope', message)` when the server answers a JSON envelope instead of a
 * file (e.g. 404 for a character that is not the user's), `network` when there is no answer.
 */
export async function apiDownload(
  path: string,
  query: RequestOptions["query"],
  fallbackName: string,
): Promise<{ blob: Blob; fileName: string }> {
  const response = await send(buildUrl(path, query), {});
  const isJson = (response.headers.get("Content-Type") ?? "").includes("application/json");
  const payload: unknown = isJson ? await response.json().catch(() => null) : null;
  handleSessionStatus(response.status, payload);
  if (isEnvelope(payload)) throw ApiError.fromEnvelope(payload, response.status, "Request failed");
  if (!response.ok) throw new ApiError(`HTTP ${response.status}`, "network", { status: response.status });
  return {
    blob: await response.blob(),
    fileName: attachmentName(response.headers.get("Content-Disposition"), fallbackName),
  };
}
