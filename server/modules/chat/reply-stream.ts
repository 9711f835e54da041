// The server-sent events of a streamed reply or group turn, also appended to each entry's live reply for resuming.
import type { FastifyBaseLogger } from "fastify";
import type { GroupReply, MessageReply } from "../../../common/api";
import type { ReplyStreamArgs, StreamEmit } from "../../../common/stream-events";
import type { ChatHistoryRow } from "../../db/schema";
import { type EventStream, errorEventData } from "../../http/sse";
import type { LiveReplies, LiveReplyWriter } from "./live-replies";
import { TokenBatch } from "./token-batch";
import type { TurnStream } from "./turn.service";

/**
 * Sends one reply stream event (common/stream-events.ts) on the event stream, with `id: <id>` when
 * given: the typed way onto the wire for what is not a LiveReplyStream (the follow route's own
 * `done`). The event stream itself writes any name and JSON it is handed (server/http/sse.ts).
 */
export function sendEvent(
  events: EventStream,
  id: number | undefined,
  ...[event, data]: ReplyStreamArgs
): void {
  events.send(event, data, id);
}

/**
 * What both kinds of streamed request share: the event stream to the client and the
 * live reply of the entry being written, which a reload or another tab follows. Its events are
 * those of common/stream-events.ts, each with its own data (`emit` is typed by them). `token` events
 * leave in batches (token-batch.ts): the text of the tokens that came within a short window is
 * one `token` event, to the client and in the live reply; any other event sends the batch first.
 */
abstract class LiveReplyStream {
  protected writer?: LiveReplyWriter;
  private readonly tokens = new TokenBatch((text) => this.deliver("token", { text }));

  constructor(
    protected readonly events: EventStream,
    private readonly live: LiveReplies,
  ) {}

  /**
   * Opens the entry's live reply (`fresh` for a new entry, false for a continuation); the one
   * open before ends (a group's next member).
   */
  async attach(entry: ChatHistoryRow, fresh: boolean): Promise<void> {
    this.tokens.flush();
    this.writer?.end();
    this.writer = await this.live.open(entry.id, { fresh });
  }

  /** Sends one event of the reply: `token` ({text}) joins the batch, any other sends it first. */
  readonly emit: StreamEmit = (...event) => {
    if (event[0] === "token") {
      this.tokens.push(event[1].text);
      return;
    }
    this.tokens.flush();
    this.deliver(...event);
  };

  /** Sends the tokens held back, if any. */
  protected flushTokens(): void {
    this.tokens.flush();
  }

  /** Sends one event now, to the client and the live reply. */
  protected abstract deliver(...event: ReplyStreamArgs): void;
}

/**
 * The server-sent events of one streamed request (chat/message, chat/continue-message):
 * every event goes to the client with `id: <seq>` and, once the entry is known, is appended to the
 * entry's live reply, so a reload or another tab (on any instance) resumes it from the last id it
 * saw with GET /api/chat/stream. Events before the entry is stored (a refusal) are numbered for
 * the client only. The live reply ends with `done` or `error`, or with `close()` at the latest.
 */
export class StreamedReply extends LiveReplyStream implements TurnStream {
  private seq = 0;

  /** Sends one event (and appends it to the live reply); `done` and `error` end both. */
  protected deliver(...event: ReplyStreamArgs): void {
    const id = this.writer ? this.writer.append(event[0], event[1]) : ++this.seq;
    sendEvent(this.events, id, ...event);
  }

  /** Ends with an `error` event: the failure envelope plus its HTTP status (see sse.ts). */
  fail(error: unknown, log: FastifyBaseLogger): void {
    this.emit("error", errorEventData(error, log));
  }

  /** Ends the live reply if no last event did (idempotent). */
  close(): void {
    this.flushTokens();
    this.writer?.end();
  }
}

/**
 * The server-sent events of one streamed group turn (POST /api/chat/group/reply with stream=1). For each member in turn order the client gets `entry` (that member's stored entry),
 * its `token`s and `audio`s, and at the end one `done` with the group answer (or `error`). Each
 * member's events also go to that entry's own live reply, which `settle` ends with the
 * member's own `done` (the one-to-one reply shape), so GET /api/chat/stream?id=<entry> follows one
 * member's reply from a reload or another tab, and Stop (POST /api/chat/stop) reaches it. The
 * client's events carry no `id:`: the turn as a whole is not resumable (the client falls back on
 * the history when its connection drops).
 */
export class GroupStreamedReply extends LiveReplyStream {
  /** Sends one event of the member speaking now (and appends it to its live reply). */
  protected deliver(...event: ReplyStreamArgs): void {
    this.writer?.append(event[0], event[1]);
    sendEvent(this.events, undefined, ...event);
  }

  /** The member's reply is over: its live reply ends with `reply` (not sent to the group's client). */
  settle(reply: MessageReply): void {
    this.flushTokens();
    this.appendOnly("done", reply);
    this.close();
  }

  /** Ends the stream with the group answer (`done`). */
  finish(answer: GroupReply): void {
    this.close();
    sendEvent(this.events, undefined, "done", answer);
  }

  /** Ends with an `error` event (also the end of the live reply of the member speaking). */
  fail(error: unknown, log: FastifyBaseLogger): void {
    this.flushTokens();
    const data = errorEventData(error, log);
    this.appendOnly("error", data);
    this.close();
    sendEvent(this.events, undefined, "error", data);
  }

  /** Appends one event to the live reply of the member speaking, without sending it to the client. */
  private appendOnly(...event: ReplyStreamArgs): void {
    this.writer?.append(event[0], event[1]);
  }

  /** Ends the live reply of the member speaking, if any (idempotent). */
  close(): void {
    this.flushTokens();
    this.writer?.end();
    this.writer = undefined;
  }
}
