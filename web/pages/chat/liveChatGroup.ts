// The live-chat events of replies shown one after another: split replies revealed part by part and group members replying in turn (product.md §4 "Split replies", "Group chat").
import type { ChatHistoryEntry } from "../../../common/api";
import { added, hasItem, type LiveChatState, memberKey, noneStreaming, update } from "./liveChatState";

/** The events of a split reply's reveal and of a group's replies. */
export type GroupAction =
  /** A split or group reveal starts (+1) or ends (-1); the typing indicator stays meanwhile. */
  | { type: "reveal"; step: 1 | -1 }
  /** Split reply: these first parts are shown. */
  | { type: "partsRevealed"; key: string; parts: string[] }
  /** The next group member to reply (for the typing indicator). */
  | { type: "replyingTo"; characterId: string }
  /** The server's entry replaces item `key` (the first group reply, a stored photo or picture). */
  | { type: "stored"; key: string; entry: ChatHistoryEntry }
  /** A stored entry appears after the others (the next group reply). */
  | { type: "added"; key: string; entry: ChatHistoryEntry }
  /**
   * Streamed group send: member `index` of send `key` starts speaking with its stored
   * `entry` (the first member's is the user's message, item `key`; each further one is a new item
   * `memberKey(key, index)`). Its reply starts empty and streams; the one before stops streaming;
   * the typing indicator names this member.
   */
  | { type: "memberStarted"; key: string; index: number; entry: ChatHistoryEntry }
  /**
   * The group answer of send `key` arrived: its `entries` (turn order) replace the members' items
   * (added when they were not streamed); nothing streams any more; 'online', or 'away' unless `ok`.
   */
  | { type: "groupReplied"; key: string; entries: ChatHistoryEntry[]; ok: boolean };

/** The reducer of reveal and group events: pure, one action at a time. */
export function groupReducer(state: LiveChatState, action: GroupAction): LiveChatState {
  switch (action.type) {
    case "reveal":
      return { ...state, revealing: state.revealing + action.step };
    case "partsRevealed":
      return update(state, action.key, () => ({ replyParts: action.parts }));
    case "replyingTo":
      return { ...state, replyingCharacterId: action.characterId };
    case "stored":
      return update(state, action.key, () => ({ entry: action.entry, delivery: "sent" }));
    case "added":
      return added(state, action.key, action.entry);
    case "memberStarted": {
      const { key, index, entry } = action;
      const next: LiveChatState = {
        ...noneStreaming(state),
        status: "replying...",
        replyingCharacterId: entry.characterUUID,
        streamingId: entry.chatHistoryUUID,
      };
      const item = {
        delivery: "sent" as const,
        streaming: true,
        entry: { ...entry, chatHistoryReplyMessage: "" },
      };
      const itemKey = memberKey(key, index);
      if (hasItem(next, itemKey)) return update(next, itemKey, () => item);
      return { ...next, items: [...next.items, { key: itemKey, source: "message", ...item }] };
    }
    case "groupReplied": {
      let next: LiveChatState = {
        ...noneStreaming(state),
        status: action.ok ? "online" : "away",
        streamingId: "",
      };
      for (const [index, entry] of action.entries.entries()) {
        const itemKey = memberKey(action.key, index);
        next = hasItem(next, itemKey)
          ? update(next, itemKey, () => ({ entry, delivery: "sent" }))
          : added(next, itemKey, entry);
      }
      return next;
    }
  }
}
