// The live-chat events of changing a stored reply: continue, regenerate, swipe and edit, delete and rewind.
import type { ChatHistoryEntry } from "../../../common/api";
import { added, hasItem, type LiveChatState, update } from "./liveChatState";

/** The events of a change to a stored entry. */
export type EditAction =
  /** Continue the reply of `entry` (its bubble is item `key`, added when not on screen yet). */
  | { type: "continueStarted"; key: string; entry: ChatHistoryEntry }
  | { type: "continueEnded"; key: string; ok: boolean; stored?: ChatHistoryEntry }
  /**
   * a new reply for `entry` starts (regenerate): its bubble is item `key` (added when
   * not on screen yet), its text empty and streaming; it ends with `continueEnded`.
   */
  | { type: "regenerateStarted"; key: string; entry: ChatHistoryEntry }
  /** the server changed a stored entry (swipe, edit): the items holding it show it whole. */
  | { type: "entryReplaced"; entry: ChatHistoryEntry }
  /** these stored entries were removed (delete, rewind): the items holding them leave. */
  | { type: "entriesRemoved"; ids: string[] };

/** `state` awaiting a new reply to `entry` from its character (continue, regenerate). */
function replyingTo(state: LiveChatState, entry: ChatHistoryEntry): LiveChatState {
  return {
    ...state,
    status: "replying...",
    replyingCharacterId: entry.characterUUID,
    streamingId: entry.chatHistoryUUID,
  };
}

/** The reducer of edit events: pure, one action at a time. */
export function editReducer(state: LiveChatState, action: EditAction): LiveChatState {
  switch (action.type) {
    case "continueStarted": {
      const next = replyingTo(state, action.entry);
      return hasItem(state, action.key)
        ? update(next, action.key, () => ({ replyParts: undefined, streaming: true }))
        : update(added(next, action.key, action.entry), action.key, () => ({ streaming: true }));
    }
    case "continueEnded":
      return update(
        { ...state, status: action.ok ? "online" : "away", streamingId: "" },
        action.key,
        (item) => ({
          entry: action.stored ?? item.entry,
          streaming: false,
        }),
      );
    case "regenerateStarted": {
      const { key, entry } = action;
      const next = replyingTo(state, entry);
      const item = {
        streaming: true,
        replyParts: undefined,
        entry: { ...entry, chatHistoryReplyMessage: "" },
      };
      return hasItem(state, key)
        ? update(next, key, () => item)
        : { ...next, items: [...next.items, { key, delivery: "sent", source: "message", ...item }] };
    }
    case "entryReplaced": {
      const id = action.entry.chatHistoryUUID;
      return {
        ...state,
        items: state.items.map((item) =>
          item.entry.chatHistoryUUID === id ? { ...item, entry: action.entry, replyParts: undefined } : item,
        ),
      };
    }
    case "entriesRemoved": {
      const gone = new Set(action.ids);
      return { ...state, items: state.items.filter((item) => !gone.has(item.entry.chatHistoryUUID)) };
    }
  }
}
