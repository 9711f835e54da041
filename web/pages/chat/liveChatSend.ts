// The live-chat events of a send's life: it starts, queues its items, fails, is retried, refused or settled (product.md §4, §8).
import type { ChatHistoryEntry } from "../../../common/api";
import { type LiveChatItem, type LiveChatState, update, without } from "./liveChatState";
import type { ChatStatus } from "./texts";

/** The events of a send's life, from `started` to `finished` or `settled`. */
export type SendAction =
  /** A text send (or continue) starts: no other text send until `finished`. */
  | { type: "started" }
  | { type: "finished" }
  /**
   * A pending item appears: one round of a text send (it awaits the reply of the entry's
   * character), or a photo or picture request (`source` "picture").
   */
  | {
      type: "queued";
      key: string;
      entry: ChatHistoryEntry;
      source: "message" | "picture";
      clientMessageId?: string;
    }
  /** Retry of a failed item: pending again (same client id); a photo's bubble reads `message` again. */
  | { type: "pending"; key: string; message?: string }
  /** The request left ('sending...' one-to-one, 'replying...' in a group), or a reply is done ('online'). */
  | { type: "status"; status: ChatStatus }
  /** The send failed: the stored entry when the server kept the message, else 'Failed'. */
  | { type: "failed"; key: string; stored?: ChatHistoryEntry }
  /** A photo or picture request failed; a photo's bubble then reads `message` (product.md §8). */
  | { type: "pictureFailed"; key: string; message?: string }
  /** The refetched history holds item `key`: it leaves the live items. */
  | { type: "settled"; key: string }
  /**
   * the server refused the send and named a page to open (e.g. 429 at the limit with
   * page /pricing): the message is not 'Failed'; kept as sent when stored, else it leaves.
   */
  | { type: "refused"; key: string; stored?: ChatHistoryEntry };

/** The bubble of item `key` reads `message` (when given) and is `delivery`. */
function marked(
  state: LiveChatState,
  key: string,
  delivery: LiveChatItem["delivery"],
  message: string | undefined,
): LiveChatState {
  return update(state, key, (item) => ({
    delivery,
    entry: message === undefined ? item.entry : { ...item.entry, chatHistoryMessage: message },
  }));
}

/** The reducer of a send's life events: pure, one action at a time. */
export function sendReducer(state: LiveChatState, action: SendAction): LiveChatState {
  switch (action.type) {
    case "started":
      return { ...state, busy: true };
    case "finished":
      return { ...state, busy: false, replyingCharacterId: "" };
    case "queued": {
      const { key, entry, source, clientMessageId } = action;
      return {
        ...state,
        replyingCharacterId: source === "message" ? entry.characterUUID : state.replyingCharacterId,
        items: [...state.items, { key, entry, delivery: "pending", source, clientMessageId }],
      };
    }
    case "pending":
      return marked(state, action.key, "pending", action.message);
    case "pictureFailed":
      return marked(state, action.key, "failed", action.message);
    case "status":
      return { ...state, status: action.status };
    case "failed":
      return update({ ...state, status: "away", streamingId: "" }, action.key, (item) => ({
        entry: action.stored ?? item.entry,
        delivery: action.stored ? "sent" : "failed",
        streaming: false,
        lost: false,
      }));
    case "settled":
      return without(state, action.key);
    case "refused": {
      const next = { ...state, status: "online" as const, streamingId: "" };
      const { stored } = action;
      if (stored !== undefined)
        return update(next, action.key, () => ({ entry: stored, delivery: "sent", streaming: false }));
      return without(next, action.key);
    }
  }
}
