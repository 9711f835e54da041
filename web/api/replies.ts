// Reply streams shared by the chat, group and edit calls: handlers, final reply, lost replies.
import type { ChatHistoryEntry, MessageReply } from "../../common/api";
import type { SentenceAudio } from "../../common/stream-events";
import { ApiError } from "./errors";
import { apiStream, type StreamEnd, type StreamEvent } from "./stream";

/** What a streamed reply reports while it is generated. */
export interface ReplyStreamHandlers {
  /** The stored entry (gives chatHistoryUUID), before any token. */
  onEntry?: (entry: ChatHistoryEntry) => void;
  /** One piece of the reply text, as generated. */
  onToken: (text: string) => void;
  /**
   * event `audio`: one sentence of the reply spoken, as soon as it is ready (in order,
   * index 0 first), so playback starts before the whole reply is synthesized.
   */
  onAudio?: (audio: SentenceAudio) => void;
}

/**
 * a streamed reply whose connection dropped and could not be followed again, or whose
 * generating server is gone (the stored entry is still "pending"): the reply settles in the
 * history, which polls for it. `entryId` is its chatHistoryUUID.
 */
export class ReplyLostError extends ApiError {
  constructor(readonly entryId: string) {
    super("The reply stream was lost.", "network");
    this.name = "ReplyLostError";
  }
}

/**
 * The spec's message reply (product.md §3) a reply stream ended with: the data of its `done` or
 * `error` event (a refusal's envelope), or of the plain JSON answer given instead, as it came.
 * @throws ReplyLostError when a `done` event holds a reply still "pending" (GET /chat/stream found
 * no live reply: the server that wrote it is gone, the history settles it within a minute).
 */
export function finalReply(last: StreamEnd): MessageReply {
  const reply: MessageReply = last.data;
  // GET /chat/stream answers an entry without a live reply as stored: `done`, success 0 while pending.
  const entry = reply.history?.[0];
  if (last.event === "done" && entry?.chatHistoryStatus === "pending") {
    throw new ReplyLostError(entry.chatHistoryUUID);
  }
  return reply;
}

/**
 * The `onEvent` of a reply stream: `entry`, `token` and `audio` events go to `handlers`; the final
 * `done` or `error` is the stream's answer (`replyOf`).
 */
export function replyEvents(handlers: ReplyStreamHandlers) {
  return (event: StreamEvent) => {
    switch (event.event) {
      case "entry":
        handlers.onEntry?.(event.data);
        break;
      case "token":
        handlers.onToken(event.data.text);
        break;
      case "audio":
        handlers.onAudio?.(event.data);
        break;
      case "done":
      case "error":
        break;
    }
  };
}

/**
 * The reply of a stream of the reply `entryId()`: a connection lost for good once the entry is
 * known becomes `ReplyLostError`; other errors pass through.
 */
export async function replyOf(
  stream: Promise<StreamEnd>,
  entryId: () => string,
  signal: AbortSignal | undefined,
): Promise<MessageReply> {
  try {
    return finalReply(await stream);
  } catch (error) {
    const id = entryId();
    if (
      id !== "" &&
      !signal?.aborted &&
      error instanceof ApiError &&
      error.kind === "network" &&
      !(error instanceof ReplyLostError)
    ) {
      throw new ReplyLostError(id);
    }
    throw error;
  }
}

/**
 * The `onEvent` of a reply stream (`replyEvents`) that also keeps an `entry` event's
 * chatHistoryUUID, before `handlers.onEntry` sees it: the first entry's (`keep: "first"`, a group
 * turn) or the latest's (`"last"`, one reply). `entryId()` is "" until an entry arrived.
 */
function entryTracking(
  handlers: ReplyStreamHandlers,
  keep: "first" | "last",
): { onEvent: (event: StreamEvent) => void; entryId: () => string } {
  let entryId = "";
  const onEvent = replyEvents({
    ...handlers,
    onEntry: (entry) => {
      if (keep === "last" || entryId === "") entryId = entry.chatHistoryUUID;
      handlers.onEntry?.(entry);
    },
  });
  return { onEvent, entryId: () => entryId };
}

/**
 * POSTs `body` with `stream=1` to `path` and returns its reply (`replyOf`), `handlers` seeing its
 * events. The reply's entry is the latest `entry` event's, or the first's with `keep: "first"`
 * (`entryTracking`); with `resume` a dropped connection is followed again from that entry
 * (`apiStream`). Throws like `replyOf`.
 */
export function streamReply(
  path: string,
  body: URLSearchParams | FormData,
  handlers: ReplyStreamHandlers,
  options: { keep: "first" | "last"; resume: boolean; signal?: AbortSignal },
): Promise<MessageReply> {
  const { signal } = options;
  body.set("stream", "1");
  const { onEvent, entryId } = entryTracking(handlers, options.keep);
  const stream = apiStream(path, body, onEvent, { signal, resumeId: options.resume ? entryId : undefined });
  return replyOf(stream, entryId, signal);
}
