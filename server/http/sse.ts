import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { failBody, failStatus } from "./envelope";
import { streamOpened } from "./metrics";

/**
 * Longest silence of an open event stream, milliseconds (issue 13): a comment line is sent this
 * often while the model is silent, so proxies that cut idle connections keep the stream.
 */
export const SSE_HEARTBEAT_MS = 15_000;

/** A streamed answer is asked for with `Accept: text/event-stream` or the field `stream=1`. */
export function wantsStream(request: FastifyRequest, stream: string | undefined): boolean {
  return stream === "1" || (request.headers.accept ?? "").includes("text/event-stream");
}

/** An open server-sent events answer. */
export interface EventStream {
  /** Sends one event; `done` also ends the stream. */
  send(event: string, data: unknown): void;
  /** Ends the stream with an `error` event: the failure envelope plus its HTTP status. */
  fail(error: unknown, log: FastifyBaseLogger): void;
}

/**
 * Opens a server-sent events answer: `entry` (the stored message), `token` ({text}) as the reply
 * is generated, then `done` (the same JSON as the plain answer) or `error` (the failure envelope
 * `failBody` builds, `{success: 0, message, code, page?}`, with the `status` the plain answer
 * would have had). The reply goes on to the end and is stored even if the browser goes away.
 * While the stream is open a comment line (`: keep-alive`) is sent every SSE_HEARTBEAT_MS, which
 * clients ignore, so a silent model does not leave the connection idle.
 */
export function openEventStream(reply: FastifyReply): EventStream {
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
  const open = () => !raw.writableEnded && !raw.destroyed;
  const heartbeat = setInterval(() => {
    if (open()) raw.write(": keep-alive\n\n");
  }, SSE_HEARTBEAT_MS);
  const end = () => {
    clearInterval(heartbeat);
    raw.end();
  };
  raw.on("close", () => clearInterval(heartbeat));
  // Events written in the same tick (a burst of tokens from one network read) leave in one
  // socket write (issue 19: a write per token was the largest CPU cost of a streamed reply).
  let corked = false;
  const uncork = () => {
    corked = false;
    raw.uncork();
  };
  const write = (event: string, data: unknown) => {
    if (!open()) return;
    if (!corked) {
      corked = true;
      raw.cork();
      process.nextTick(uncork);
    }
    raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  return {
    send(event, data) {
      write(event, data);
      if (event === "done") end();
    },
    fail(error, log) {
      const status = failStatus(error);
      if (status >= 500) log.error(error);
      write("error", { ...failBody(error), status: Math.min(status, 500) });
      end();
    },
  };
}
