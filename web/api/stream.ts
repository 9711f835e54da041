// Server-sent events over POST for chat replies (product.md §4), and following a dropped reply again with GET /chat/stream.
import { createParser, type EventSourceParser } from "eventsource-parser";
import { buildUrl, handleSessionStatus, isEnvelope, rememberAnswer, send } from "./client";
import { ApiError } from "./errors";

/*
 * Server-sent events over POST (product.md §4 streaming), and following a reply again with
 * GET /chat/stream after its connection dropped. Only the chat uses them, so they live
 * apart from the client every page loads.
 */

/** One server-sent event: its `event:` name, its `data:` parsed as JSON, and its `id:`. */
export interface StreamEvent {
  event: string;
  data: unknown;
  /** The event's `id:` or, without one, the last id sent before it (SSE rules); "" before any. */
  id?: string;
}

/** Where a stream stands: the last event id received ("" before any), kept across connections. */
export interface StreamCursor {
  lastId: string;
}

/** GET /chat/stream attempts after a drop before giving up. */
export const RESUME_ATTEMPTS = 4;
/** The wait before a resume attempt, doubled each attempt: 250, 500, 1000, 2000 ms. */
export const RESUME_DELAY_MS = 250;

const EVENT_STREAM = "text/event-stream";

/**
 * A parser of an event stream fed chunk by chunk (eventsource-parser: CR, LF and CRLF line ends,
 * also when one is split between chunks; one space after `data:` dropped, as the SSE standard
 * says). Each event goes to `onEvent` with its `data:` parsed as JSON (kept as the string when it
 * is not JSON) and the id current when it ends: its own `id:`, which moves `cursor.lastId`, or
 * the last one before it. Comments and other fields are ignored; an `id:` holding NUL is too.
 */
export function eventParser(cursor: StreamCursor, onEvent: (event: StreamEvent) => void): EventSourceParser {
  return createParser({
    onEvent(message) {
      if (message.id !== undefined) cursor.lastId = message.id;
      let data: unknown = message.data;
      try {
        data = JSON.parse(message.data);
      } catch {}
      onEvent({ event: message.event ?? "message", data, id: cursor.lastId });
    },
  });
}

const isFinal = (event: StreamEvent) => event.event === "done" || event.event === "error";

/**
 * Reads an event stream, calling `onEvent` for each event and moving `cursor`. Returns the final
 * event (`done` or `error`), or null when the stream ended without one. Throws
 * `ApiError('network')` when the connection breaks; errors of `onEvent` pass through.
 */
async function readEvents(
  body: NonNullable<Response["body"]>,
  onEvent: (event: StreamEvent) => void,
  cursor: StreamCursor,
): Promise<StreamEvent | null> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const events: StreamEvent[] = [];
  const parser = eventParser(cursor, (event) => events.push(event));
  for (;;) {
    let chunk: ReadableStreamReadResult<string>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw new ApiError(error instanceof Error ? error.message : "Stream interrupted", "network");
    }
    if (chunk.done) return null;
    parser.feed(chunk.value);
    for (const event of events.splice(0)) {
      onEvent(event);
      // The server ends the stream right after its final event: nothing to cancel (cancelling
      // would abort a response that has just finished).
      if (isFinal(event)) return event;
    }
  }
}

/** A plain JSON answer instead of a stream (e.g. 429): its envelope as the final event. */
async function finalFromJson(
  response: Response,
  onEvent: (event: StreamEvent) => void,
): Promise<StreamEvent> {
  const payload: unknown = await response.json().catch(() => null);
  handleSessionStatus(response.status, payload);
  if (!isEnvelope(payload)) {
    throw new ApiError(`HTTP ${response.status}`, "network", { status: response.status });
  }
  rememberAnswer(payload, response);
  const final = { event: payload.success === 1 ? "done" : "error", data: payload };
  onEvent(final);
  return final;
}

const isStream = (response: Response): response is Response & { body: NonNullable<Response["body"]> } =>
  (response.headers.get("Content-Type") ?? "").includes(EVENT_STREAM) && response.body !== null;

const isNetworkError = (error: unknown) => error instanceof ApiError && error.kind === "network";

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export interface FollowOptions {
  /** Follow from after this event id ("" or omitted: from the start of the reply). */
  after?: string;
  /** How many GETs at most (default RESUME_ATTEMPTS). */
  attempts?: number;
  /** The first back-off, ms, doubled each attempt (default RESUME_DELAY_MS). */
  delayMs?: number;
  /** Wait the first back-off before the first GET too (a connection just dropped). */
  waitFirst?: boolean;
  signal?: AbortSignal;
}

/**
 * GET /chat/stream?id=<entryId>&after=<last id>: the events of a reply after `after`,
 * then the live reply to its `done` or `error`, which is returned; `onEvent` sees each event. A
 * plain JSON answer comes back as in `apiStream`. When the connection fails, breaks or ends
 * without a final event (or the answer is HTTP 5xx, e.g. a proxy while an instance restarts),
 * it asks again from the last id it saw, up to `attempts` times with a doubling back-off, then
 * throws that `ApiError('network')`. 401 and 503 envelopes are handled as in `apiRequest`; an
 * aborted `signal` ends it with an `ApiError('network')` at once.
 */
export async function followStream(
  entryId: string,
  onEvent: (event: StreamEvent) => void,
  options: FollowOptions = {},
): Promise<StreamEvent> {
  const { attempts = RESUME_ATTEMPTS, delayMs = RESUME_DELAY_MS, signal } = options;
  const cursor: StreamCursor = { lastId: options.after ?? "" };
  for (let attempt = 0; ; attempt += 1) {
    const wait = attempt > 0 ? delayMs * 2 ** attempt : options.waitFirst ? delayMs : 0;
    if (wait > 0) await pause(wait, signal);
    try {
      const query = { id: entryId, after: cursor.lastId || "0" };
      const response = await send(buildUrl("/chat/stream", query), { accept: EVENT_STREAM, signal });
      // A proxy's 502/504 or an instance going away; a 503 envelope is the maintenance answer,
      // or an outage's (handleSessionStatus), which ends the reply with its `error` event.
      const maintenance = response.status === 503 && response.headers.get("Content-Type")?.includes("json");
      if (response.status >= 500 && !maintenance) {
        throw new ApiError(`HTTP ${response.status}`, "network", { status: response.status });
      }
      if (!isStream(response)) return await finalFromJson(response, onEvent);
      const last = await readEvents(response.body, onEvent, cursor);
      if (last !== null) return last;
      throw new ApiError("The answer ended early.", "network");
    } catch (error) {
      if (!isNetworkError(error) || signal?.aborted || attempt + 1 >= attempts) throw error;
    }
  }
}

export interface StreamOptions {
  signal?: AbortSignal;
  /**
   * the chatHistoryUUID of the reply being streamed, once known (from its events or
   * the request): when the connection drops before the final event, the reply is followed again
   * with `followStream` from the last event id. "" or omitted: no resume.
   */
  resumeId?: () => string;
  /** Back-off and attempts of that resume (`followStream`'s). */
  resume?: Pick<FollowOptions, "attempts" | "delayMs">;
}

/**
 * POSTs `body` asking for server-sent events (`Accept: text/event-stream`, bearer token as in
 * `apiRequest`) and calls `onEvent` for every event as it arrives (fetch + stream reader,
 * since EventSource cannot POST). Returns the last event: `done` or `error` for a stream.
 * When the server answers plain JSON instead (e.g. 429 at the daily limit), that envelope is
 * returned as a `done` event (success 1) or an `error` event. 401 and 503 are mapped like
 * `apiRequest` (product.md §8). When the stream drops before its final event and `resumeId` names the
 * reply, the rest comes from `followStream`. Throws `ApiError('network')` when the
 * request fails, or the stream ends early and cannot be followed again.
 */
export async function apiStream(
  path: string,
  body: URLSearchParams | FormData,
  onEvent: (event: StreamEvent) => void,
  options: StreamOptions = {},
): Promise<StreamEvent> {
  const { signal } = options;
  const response = await send(buildUrl(path, undefined), {
    method: "POST",
    body,
    signal,
    accept: EVENT_STREAM,
  });
  if (!isStream(response)) return finalFromJson(response, onEvent);
  const cursor: StreamCursor = { lastId: "" };
  let dropped: unknown = new ApiError("The answer ended early.", "network");
  try {
    const last = await readEvents(response.body, onEvent, cursor);
    if (last !== null) return last;
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    dropped = error;
  }
  const entryId = options.resumeId?.() ?? "";
  if (entryId === "" || signal?.aborted) throw dropped;
  return followStream(entryId, onEvent, { ...options.resume, after: cursor.lastId, waitFirst: true, signal });
}
