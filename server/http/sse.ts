// Server-sent events for streamed replies: asking for a stream, opening one, heartbeats and the `error` event's data.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import type { StreamFailure } from "../../common/stream-events";
import { requestLanguage } from "../i18n/language";
import { carried, carry } from "../i18n/messages";
import { localiseEnvelope } from "../i18n/translate";
import { observeRequest, streamOpened } from "../observability/metrics";
import { failBody, failStatus } from "./envelope";
import { outageEventData } from "./outages";
import { logRequest } from "./setup";

/**
 * Longest silence of an open event stream, milliseconds: a comment line is sent this
 * often while the model is silent, so proxies that cut idle connections keep the stream.
 */
export const SSE_HEARTBEAT_MS = 15_000;

/** A streamed answer is asked for with `Accept: text/event-stream` or the field `stream=1`. */
export function wantsStream(request: FastifyRequest, stream: string | undefined): boolean {
  return stream === "1" || (request.headers.accept ?? "").includes("text/event-stream");
}

/**
 * An open server-sent events answer: the transport, which writes any event name and JSON data it
 * is handed. What a reply stream sends is declared in common/stream-events.ts and sent through the
 * typed emitters of server/modules/chat/reply-stream.ts; a live reply's stored events are relayed
 * through `send` as they were appended.
 */
export interface EventStream {
  /**
   * Sends one event, with `id: <id>` when given (the client resumes after the last id
   * it saw); `done` and `error` also end the stream.
   */
  send(event: string, data: unknown, id?: number): void;
  /** Ends the stream with an `error` event: the failure envelope plus its HTTP status. */
  fail(error: unknown, log: FastifyBaseLogger, id?: number): void;
  /**
   * Ends the stream without a last event (graceful shutdown): a resumable end, after
   * which the client reconnects with `Last-Event-ID`.
   */
  end(): void;
  /** Whether the stream is still open (the client has not gone away). */
  readonly open: boolean;
}

/**
 * The data of the `error` event for a failure: the envelope `failBody` builds plus the HTTP
 * `status` the plain answer would have had. An outage of the database, Redis or the storage
 * carries its code (e.g. "database_unavailable"), sentence and status 503, logged as one line
 * naming the engine (outages.ts); any other failure of 500 and more is logged, with status 500.
 */
export function errorEventData(error: unknown, log: FastifyBaseLogger): StreamFailure {
  const outage = outageEventData(error, log);
  // Returned as it is: a copy would lose the message value it carries (the stream's language).
  if (outage) return outage;
  const status = failStatus(error);
  if (status >= 500) log.error(error);
  const body = failBody(error);
  // The copy keeps the message value, so the event is rendered in the stream's language.
  return carry({ ...body, status: Math.min(status, 500) }, carried(body) ?? body.message);
}

/**
 * Opens a server-sent events answer: `entry` (the stored message), `token` ({text}) as the reply
 * is generated, then `done` (the same JSON as the plain answer) or `error` (the failure envelope
 * `failBody` builds, `{success: 0, message, code, page?}`, with the `status` the plain answer
 * would have had). Events of a live reply carry `id: <seq>`. The reply goes on to the end and is stored even if the browser goes away.
 * While the stream is open a comment line (`: keep-alive`) is sent every SSE_HEARTBEAT_MS, which
 * clients ignore, so a silent model does not leave the connection idle.
 * @param options.flushHead sends the head at once rather than with the first event (a stream
 *   whose first event may be long in coming).
 */
export function openEventStream(reply: FastifyReply, options: { flushHead?: boolean } = {}): EventStream {
  reply.hijack();
  const raw = reply.raw;
  streamOpened(raw);
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
    "x-content-type-options": "nosniff",
  });
  // A follower may wait long for its next event: its head leaves now, so it knows it is open.
  // (Other streams send their first event at once; their head leaves with it in one write.)
  if (options.flushHead) raw.flushHeaders();
  // an envelope in an event (`error`, `done`) reads in this request's language; a live
  // reply stores English, so each follower of it gets its own language.
  const language = requestLanguage(reply.request);
  const open = () => !raw.writableEnded && !raw.destroyed;
  const heartbeat = setInterval(() => {
    if (open()) raw.write(": keep-alive\n\n");
  }, SSE_HEARTBEAT_MS);
  const end = () => {
    clearInterval(heartbeat);
    if (raw.writableEnded) {
      uncork();
      return;
    }
    // end() uncorks the socket fully: the events still held leave with the end, in one write.
    corked = null;
    raw.end();
  };
  raw.on("close", () => {
    clearInterval(heartbeat);
    // The client went away before the end (the reply goes on and is stored): Fastify logs and
    // measures a request when its answer finishes, which this one never does.
    if (!raw.writableFinished) {
      logRequest(reply.request, reply, { closedByClient: true });
      observeRequest(reply.request, reply);
    }
  });
  // Events written in the same turn of the event loop leave in one socket write (a
  // write per token was the largest CPU cost of a streamed reply): a burst of tokens from one
  // network read and, when the model's answer ended in that read, the stored reply's `done`
  // (the promise hops that store it run before `setImmediate`; `nextTick` came before them).
  // The socket is corked, not the response: Node 22+ keeps a corked response's writes apart
  // until its own uncork(), and an end() before that loses them (the last tokens and `done`).
  let corked: typeof raw.socket = null;
  const uncork = () => {
    corked?.uncork();
    corked = null;
  };
  const write = (event: string, data: unknown, id: number | undefined) => {
    if (!open()) return;
    if (!corked && raw.socket) {
      corked = raw.socket;
      corked.cork();
      setImmediate(uncork);
    }
    const head = id === undefined ? "" : `id: ${id}\n`;
    raw.write(`${head}event: ${event}\ndata: ${JSON.stringify(localiseEnvelope(data, language))}\n\n`);
  };
  return {
    send(event, data, id) {
      write(event, data, id);
      if (event === "done" || event === "error") end();
    },
    fail(error, log, id) {
      write("error", errorEventData(error, log), id);
      end();
    },
    end,
    get open() {
      return open();
    },
  };
}
