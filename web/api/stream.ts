// Server-sent events over POST for chat replies (product.md §4), and following a dropped reply again with GET /chat/stream.
import { createParser, type EventSourceParser } from "eventsource-parser";
import type { ChatHistoryEntry, Envelope, GroupReply, MessageReply } from "../../common/api";
import type {
  ReplyStreamEvent,
  ReplyStreamEventName,
  SentenceAudio,
  StreamFailure,
} from "../../common/stream-events";
import { buildUrl, handleSessionStatus, isEnvelope, rememberAnswer, send } from "./client";
import { ApiError } from "./errors";

/*
 * Server-sent events over POST (product.md §4 streaming), and following a reply again with
 * GET /chat/stream after its connection dropped. Only the chat uses them, so they live
 * apart from the client every page loads.
 */

/** One server-sent event as read from the wire: its `event:` name, its `data:` parsed as JSON, and its `id:`. */
export interface SseMessage {
  event: string;
  data: unknown;
  /** The event's `id:` or, without one, the last id sent before it (SSE rules); "" before any. */
  id?: string;
}

/**
 * One event of a reply stream (common/stream-events.ts: `entry`, `token`, `audio`, `done`,
 * `error`), read by `parseStreamEvent`, with the id current when it ended (SseMessage `id`).
 */
export type StreamEvent = ReplyStreamEvent & { id?: string };

/** The last event of a stream: `done` or `error`. */
export type FinalEvent = Extract<StreamEvent, { event: "done" | "error" }>;

/**
 * A plain JSON answer given instead of a stream (e.g. 429 at the daily limit, or GET /chat/stream
 * for an entry that is not the user's): its envelope, as `done` (success 1) or `error`. It is no
 * stream event: its data is the envelope as it came (no `status`; `code` only on a refusal).
 */
export interface PlainAnswer {
  event: "done" | "error";
  data: Envelope;
  id?: undefined;
}

/** How a streamed call ended: its final event, or the plain JSON answer given instead. */
export type StreamEnd = FinalEvent | PlainAnswer;

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
export function eventParser(cursor: StreamCursor, onEvent: (event: SseMessage) => void): EventSourceParser {
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/** An `entry`: its chatHistoryUUID is what the stream's readers rely on (the rest is shown as it is). */
function isEntry(data: unknown): data is ChatHistoryEntry {
  return isObject(data) && typeof data.chatHistoryUUID === "string";
}

function isToken(data: unknown): data is { text: string } {
  return isObject(data) && typeof data.text === "string";
}

function isSentenceAudio(data: unknown): data is SentenceAudio {
  return (
    isObject(data) &&
    typeof data.chatHistoryUUID === "string" &&
    typeof data.index === "number" &&
    typeof data.text === "string" &&
    typeof data.audioUrl === "string"
  );
}

/** A `done`: an envelope (`success` 0 or 1, a `message`), the plain call's answer. */
function isReply(data: unknown): data is MessageReply | GroupReply {
  return isObject(data) && (data.success === 0 || data.success === 1) && typeof data.message === "string";
}

/**
 * An `error`: the failure envelope (`success` 0, `message`, `code`) with the plain call's `status`.
 * Any string is taken as the code: a code newer than this web app still ends the reply.
 */
function isFailure(data: unknown): data is StreamFailure {
  return (
    isObject(data) &&
    data.success === 0 &&
    typeof data.message === "string" &&
    typeof data.code === "string" &&
    typeof data.status === "number"
  );
}

/**
 * How each event of common/stream-events.ts is read: its data checked for the minimal shape, the
 * member made, or undefined when the data is malformed. One reader per event name: an event added
 * to the union without its reader here does not compile.
 */
const READERS: {
  [E in ReplyStreamEventName]: (data: unknown) => Extract<ReplyStreamEvent, { event: E }> | undefined;
} = {
  entry: (data) => (isEntry(data) ? { event: "entry", data } : undefined),
  token: (data) => (isToken(data) ? { event: "token", data } : undefined),
  audio: (data) => (isSentenceAudio(data) ? { event: "audio", data } : undefined),
  done: (data) => (isReply(data) ? { event: "done", data } : undefined),
  error: (data) => (isFailure(data) ? { event: "error", data } : undefined),
};

const isEventName = (name: string): name is ReplyStreamEventName => Object.hasOwn(READERS, name);

/**
 * One message of a reply stream read as its event (common/stream-events.ts), with its id; the data
 * is the message's own object (not a copy). Undefined for an event name the union does not have
 * (e.g. the SSE default `message`) or data without the event's minimal shape: such messages are
 * dropped (their `id:` still moved the cursor).
 */
export function parseStreamEvent(message: SseMessage): StreamEvent | undefined {
  if (!isEventName(message.event)) return undefined;
  const event = READERS[message.event](message.data);
  return event && { ...event, id: message.id };
}

/**
 * Reads an event stream, calling `onEvent` for each reply stream event (`parseStreamEvent`; other
 * messages are dropped) and moving `cursor`. Returns the final event (`done` or `error`), or null
 * when the stream ended without one. Throws `ApiError('network')` when the connection breaks;
 * errors of `onEvent` pass through.
 */
async function readEvents(
  body: NonNullable<Response["body"]>,
  onEvent: (event: StreamEvent) => void,
  cursor: StreamCursor,
): Promise<FinalEvent | null> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const events: StreamEvent[] = [];
  const parser = eventParser(cursor, (message) => {
    const event = parseStreamEvent(message);
    if (event) events.push(event);
  });
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
      if (event.event === "done" || event.event === "error") return event;
    }
  }
}

/**
 * A plain JSON answer instead of a stream (e.g. 429): its envelope (remembered with its status for
 * `failureOf`) as the end of the call. It goes to no `onEvent`: it is no stream event.
 */
async function finalFromJson(response: Response): Promise<PlainAnswer> {
  const payload: unknown = await response.json().catch(() => null);
  handleSessionStatus(response.status, payload);
  if (!isEnvelope(payload)) {
    throw new ApiError(`HTTP ${response.status}`, "network", { status: response.status });
  }
  rememberAnswer(payload, response);
  return { event: payload.success === 1 ? "done" : "error", data: payload };
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
 * then the live reply to its `done` or `error`, which is returned; `onEvent` sees each event
 * (`parseStreamEvent`). A plain JSON answer comes back as in `apiStream`. When the connection fails, breaks or ends
 * without a final event (or the answer is HTTP 5xx, e.g. a proxy while an instance restarts),
 * it asks again from the last id it saw, up to `attempts` times with a doubling back-off, then
 * throws that `ApiError('network')`. 401 and 503 envelopes are handled as in `apiRequest`; an
 * aborted `signal` ends it with an `ApiError('network')` at once.
 */
export async function followStream(
  entryId: string,
  onEvent: (event: StreamEvent) => void,
  options: FollowOptions = {},
): Promise<StreamEnd> {
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
      if (!isStream(response)) return await finalFromJson(response);
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
 * since EventSource cannot POST), each read into common/stream-events.ts's union once
 * (`parseStreamEvent`; unknown or malformed messages dropped). Returns the last event: `done` or
 * `error` for a stream. When the server answers plain JSON instead (e.g. 429 at the daily limit),
 * that envelope is returned as a PlainAnswer, `done` (success 1) or `error`. 401 and 503 are mapped like
 * `apiRequest` (product.md §8). When the stream drops before its final event and `resumeId` names the
 * reply, the rest comes from `followStream`. Throws `ApiError('network')` when the
 * request fails, or the stream ends early and cannot be followed again.
 */
export async function apiStream(
  path: string,
  body: URLSearchParams | FormData,
  onEvent: (event: StreamEvent) => void,
  options: StreamOptions = {},
): Promise<StreamEnd> {
  const { signal } = options;
  const response = await send(buildUrl(path, undefined), {
    method: "POST",
    body,
    signal,
    accept: EVENT_STREAM,
  });
  if (!isStream(response)) return finalFromJson(response);
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
