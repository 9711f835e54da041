import type { FastifyBaseLogger } from "fastify";
import type { ChatHistoryRow } from "../../db/schema";
import { type EventStream, errorEventData } from "../../http/sse";
import type { LiveReplies, LiveReplyWriter } from "./live-replies";
import type { TurnStream } from "./turn.service";

/**
 * The server-sent events of one streamed request (chat/message, chat/continue-message; issue 15):
 * every event goes to the client with `id: <seq>` and, once the entry is known, is appended to the
 * entry's live reply, so a reload or another tab (on any instance) resumes it from the last id it
 * saw with GET /api/chat/stream. Events before the entry is stored (a refusal) are numbered for
 * the client only. The live reply ends with `done` or `error`, or with `close()` at the latest.
 */
export class StreamedReply implements TurnStream {
  private writer?: LiveReplyWriter;
  private seq = 0;

  constructor(
    private readonly events: EventStream,
    private readonly live: LiveReplies,
  ) {}

  /** Opens the entry's live reply; `fresh` for a new entry, false for a continuation. */
  async attach(entry: ChatHistoryRow, fresh: boolean): Promise<void> {
    this.writer?.end();
    this.writer = await this.live.open(entry.id, { fresh });
  }

  /** Sends one event (and appends it to the live reply); `done` and `error` end both. */
  readonly emit = (event: string, data: unknown): void => {
    const id = this.writer ? this.writer.append(event, data) : ++this.seq;
    this.events.send(event, data, id);
  };

  /** Ends with an `error` event: the failure envelope plus its HTTP status (see sse.ts). */
  fail(error: unknown, log: FastifyBaseLogger): void {
    this.emit("error", errorEventData(error, log));
  }

  /** Ends the live reply if no last event did (idempotent). */
  close(): void {
    this.writer?.end();
  }
}
