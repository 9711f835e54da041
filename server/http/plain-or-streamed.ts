// Answering a model turn plain (one JSON answer) or as server-sent events, as the caller asked.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import { type EventStream, openEventStream, wantsStream } from "./sse";

/** The events of one streamed turn, built on its open event stream; `fail` or `close` end them. */
export interface TurnEvents {
  fail(error: unknown, log: FastifyBaseLogger): void;
  close(): void;
}

/** What a turn resolves to: the plain answer and the time spent in the language model (ms). */
export interface TurnResult<R> {
  reply: R;
  modelMs: number;
}

/** One turn as `answerPlainOrStreamed` runs it. */
export interface StreamableTurn<E extends TurnEvents, R> {
  /** Builds the turn's events on the open event stream. */
  events: (sse: EventStream) => E;
  /** Runs the turn; with `events` when streamed. */
  run: (events?: E) => Promise<TurnResult<R>>;
  /** Sends the last event of a streamed turn that succeeded. */
  done: (events: E, result: TurnResult<R>) => void;
}

/**
 * Answers a turn route (product.md §7: chat/message, chat/continue-message, chat/regenerate,
 * chat/group/reply). Plain: runs the turn, records its model time on the request, returns the
 * answer. Streamed (`stream=1` or `Accept: text/event-stream`, wantsStream): opens the event
 * stream, runs the turn with its events, ends with `turn.done` or, if it throws, an `error`
 * event; the events are closed either way and nothing is returned (the reply is hijacked).
 * @param stream the request's `stream` field.
 * @throws whatever the plain turn throws (the envelope of the error handler answers it).
 */
export async function answerPlainOrStreamed<E extends TurnEvents, R>(
  request: FastifyRequest,
  reply: FastifyReply,
  stream: string | undefined,
  turn: StreamableTurn<E, R>,
): Promise<R | undefined> {
  if (!wantsStream(request, stream)) {
    const result = await turn.run();
    request.modelMs = result.modelMs;
    return result.reply;
  }
  const events = turn.events(openEventStream(reply));
  try {
    turn.done(events, await turn.run(events));
  } catch (error) {
    events.fail(error, request.log);
  } finally {
    events.close();
  }
  return undefined;
}
