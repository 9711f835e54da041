// The live-chat events of a streamed reply: the stored entry, its tokens, the whole reply, a lost stream, and a reply followed after a reload (product.md §4 stream).
import type { ChatHistoryEntry } from "../../../common/api";
import { type LiveChatItem, type LiveChatState, noneStreaming, update, without } from "./liveChatState";

/** The events of one reply's stream. */
export type StreamAction =
  /** product.md §4 stream: the stored entry arrived (gives chatHistoryUUID); the reply starts empty. */
  | { type: "entryStored"; key: string; entry: ChatHistoryEntry }
  /** One piece of reply text for item `key`. */
  | { type: "token"; key: string; text: string }
  /** The whole reply: `parts` when it is split; `streamed` when its text already streamed in. */
  | { type: "replied"; key: string; entry: ChatHistoryEntry; parts?: string[]; streamed: boolean }
  /** The request ended without a reply (401/503, already answered by the client). */
  | { type: "streamEnded" }
  /**
   * the stream of item `key`'s reply was lost for good: the history takes it over
   * (nothing on screen streams any more: a group's later members too).
   */
  | { type: "lost"; key: string }
  /**
   * a reply still being written (e.g. after a reload) is followed: its history entry
   * shows as item `key`, its text from the first token on; no send meanwhile.
   */
  | { type: "followStarted"; key: string; entry: ChatHistoryEntry }
  /** The followed reply ended (the history shows it now): item `key` leaves; 'away' unless `ok`. */
  | { type: "followEnded"; key: string; ok: boolean };

/** The reducer of a reply's stream events: pure, one action at a time. */
export function streamReducer(state: LiveChatState, action: StreamAction): LiveChatState {
  switch (action.type) {
    case "entryStored":
      return update(
        { ...state, status: "replying...", streamingId: action.entry.chatHistoryUUID },
        action.key,
        () => ({
          delivery: "sent",
          streaming: true,
          entry: { ...action.entry, chatHistoryReplyMessage: "" },
        }),
      );
    case "token":
      return update({ ...state, status: "replying..." }, action.key, (item) => ({
        streaming: true,
        entry: { ...item.entry, chatHistoryReplyMessage: item.entry.chatHistoryReplyMessage + action.text },
      }));
    case "replied":
      return update({ ...state, status: "online", streamingId: "" }, action.key, () => ({
        entry: action.entry,
        delivery: "sent",
        streaming: false,
        // Text the user already watched stream in is not hidden again to be revealed part by part.
        replyParts: action.parts && (action.streamed ? action.parts : []),
      }));
    case "streamEnded":
      return { ...state, streamingId: "" };
    case "lost":
      // A lost group stream leaves no later member's bubble streaming either.
      return update({ ...noneStreaming(state), status: "away", streamingId: "" }, action.key, () => ({
        streaming: false,
        lost: true,
      }));
    case "followStarted": {
      const { key, entry } = action;
      const item: LiveChatItem = {
        key,
        entry: { ...entry, chatHistoryReplyMessage: "" },
        delivery: "sent",
        source: "message",
        // Streaming from the start: its tokens go to the streaming store, which its bubble reads.
        streaming: true,
      };
      return {
        ...state,
        busy: true,
        status: "replying...",
        replyingCharacterId: entry.characterUUID,
        streamingId: entry.chatHistoryUUID,
        items: [...without(state, key).items, item],
      };
    }
    case "followEnded":
      return without(
        {
          ...state,
          busy: false,
          status: action.ok ? "online" : "away",
          replyingCharacterId: "",
          streamingId: "",
        },
        action.key,
      );
  }
}
