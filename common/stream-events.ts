// The events of a streamed reply (server-sent events): one union on the event name, each member with its data, and a typed emitter.
import type { ChatHistoryEntry, FailBody, GroupReply, MessageReply } from "./api";

/*
 * Every event a reply stream sends, declared once: the server's emitters (reply-stream.ts, the
 * turn and edits services, the follow route) are typed against it, and the SPA (web/api/stream.ts)
 * parses each message it reads into it. The streams that carry these events:
 * - POST /api/chat/message, /api/chat/continue-message and /api/chat/regenerate with `stream=1`
 *   (or `Accept: text/event-stream`): `entry`, its `token`s and `audio`s, then `done` or `error`,
 *   each with `id: <seq>` (the reply's live reply numbers them);
 * - POST /api/chat/group/reply with `stream=1`: per member in turn order `entry`, `token`s,
 *   `audio`s, then one `done` with the group answer (or `error`); no `id:`;
 * - GET /api/chat/stream (following a reply after a reload or in another tab): the live reply's
 *   events after the given id, as they were sent, or one `done` with the entry as stored.
 * Besides events a stream carries a comment line every 15 s (`: keep-alive`, SSE_HEARTBEAT_MS in
 * server/http/sse.ts), which is no event: SSE clients ignore it. The wire form of an event is
 * `id: <seq>` (when numbered), `event: <name>`, `data: <the member's data as JSON>`.
 */

/** One sentence of a streamed reply, spoken: the data of the `audio` event. */
export interface SentenceAudio {
  /** The entry the reply belongs to (chatHistoryUUID); in a group turn, the member's entry. */
  chatHistoryUUID: string;
  /** 0 for the first sentence of the reply. */
  index: number;
  /** The words spoken (narration dropped). */
  text: string;
  /** /content/voice/<hash>.mp3 */
  audioUrl: string;
}

/**
 * The data of the `error` event: the failure envelope every refusal answers (common/api/envelope.ts
 * FailBody: `success` 0, the message in the request's language, the stable `code`, `page` when
 * there is one to open) plus the HTTP `status` the plain (non-streamed) call would have had: 503
 * for an outage, at most 500 otherwise.
 */
export interface StreamFailure extends FailBody {
  status: number;
}

/**
 * `entry`: the entry the reply is written into, sent once it is stored (a new message) or checked
 * to be the user's (a continuation: its reply so far; a regeneration: its reply emptied, status
 * "pending"), before any `token`; in a group turn, once per member as it starts to speak. Data: the
 * history entry as the history shows it.
 */
export interface ReplyEntryEvent {
  event: "entry";
  data: ChatHistoryEntry;
}

/**
 * `token`: the next piece of the reply text, as the model writes it (the pieces of up to 50 ms
 * leave together, server/modules/chat/token-batch.ts). A continuation's tokens are the added text.
 */
export interface ReplyTokenEvent {
  event: "token";
  data: { text: string };
}

/**
 * `audio`: one sentence of the reply spoken, as soon as its audio is ready (in order, `index` 0
 * first), unless the request was muted or no voice engine is set up.
 */
export interface ReplyAudioEvent {
  event: "audio";
  data: SentenceAudio;
}

/**
 * `done`: the last event of a reply that ended (replied, stopped or cut short; also a refusal once
 * the entry was stored, `success` 0), with the same JSON the plain call answers. A one-to-one reply
 * sends its message reply (MessageReply), a group turn the group answer (GroupReply; each member's
 * own live reply ends with that member's MessageReply). The follow stream relays the live reply's
 * `done`, or, for an entry without a live reply, sends the entry as stored in a MessageReply
 * (`success` 0 while it is still "pending": its server is gone).
 */
export interface ReplyDoneEvent {
  event: "done";
  data: MessageReply | GroupReply;
}

/** `error`: the last event of a reply that failed: the failure envelope with the plain call's HTTP status. */
export interface ReplyErrorEvent {
  event: "error";
  data: StreamFailure;
}

/** The events of a reply stream: one member per event name (`event:`), each with its data (`data:`). */
export type ReplyStreamEvent =
  | ReplyEntryEvent
  | ReplyTokenEvent
  | ReplyAudioEvent
  | ReplyDoneEvent
  | ReplyErrorEvent;

/** The name of a reply stream event: "entry", "token", "audio", "done" or "error". */
export type ReplyStreamEventName = ReplyStreamEvent["event"];

/** The data of the event named `E`. */
export type ReplyStreamData<E extends ReplyStreamEventName> = Extract<ReplyStreamEvent, { event: E }>["data"];

/**
 * One event as an emitter's arguments, `[name, data]`, for the events named `N` (all by default):
 * a union of pairs, so a name goes only with its own data, and an emitter that tests the name
 * (`if (event === "token")`) knows its data.
 */
export type ReplyStreamArgs<N extends ReplyStreamEventName = ReplyStreamEventName> = {
  [E in N]: [event: E, data: ReplyStreamData<E>];
}[N];

/**
 * Sends one event of a reply stream (the events named `N`; all by default): an event name the
 * stream does not have, or data of another shape, does not compile.
 * @example emit("token", { text: "Hel" }); emit("entry", presentHistoryEntry(row));
 */
export type StreamEmit<N extends ReplyStreamEventName = ReplyStreamEventName> = (
  ...event: ReplyStreamArgs<N>
) => void;
