// The live-chat state (the items sent on this screen and the send's status) and the small state helpers its reducers share.
import type { ChatHistoryEntry } from "../../../common/api";
import type { ChatStatus } from "./texts";

/** A message sent (or a reply continued) on this screen, shown before and after it is stored. */
export interface LiveChatItem {
  /** Stable React key for the whole life of the item. */
  key: string;
  entry: ChatHistoryEntry;
  delivery: "pending" | "sent" | "failed";
  /** Parts of a split reply revealed so far; undefined when the reply is one message. */
  replyParts?: string[];
  /** The client's id of the send, reused by Retry so the server stores it once. */
  clientMessageId?: string;
  /** The reply text is still arriving token by token. */
  streaming?: boolean;
  /** Which sender made it: a text message (or continued reply), or a photo / picture request. */
  source?: "message" | "picture";
  /** its reply's stream was lost; the history takes it over (and polls for it). */
  lost?: boolean;
}

export interface LiveChatState {
  /** In the order they were made on this screen. */
  items: LiveChatItem[];
  status: ChatStatus;
  /** A text send (or a continued reply) is in flight: product.md §4, no other send meanwhile. */
  busy: boolean;
  /** How many split or group replies are being revealed one part after another. */
  revealing: number;
  /** The character whose reply is awaited, for the typing indicator. */
  replyingCharacterId: string;
  /** The chatHistoryUUID of the reply streaming now (it can be stopped), or "". */
  streamingId: string;
}

export const initialLiveChat: LiveChatState = {
  items: [],
  status: "online",
  busy: false,
  revealing: 0,
  replyingCharacterId: "",
  streamingId: "",
};

/** The item key of member `index`'s reply in the group send `key` (the first member's is `key`). */
export function memberKey(key: string, index: number): string {
  return index === 0 ? key : `${key}:${index}`;
}

/** `state` with no item streaming any more. */
export function noneStreaming(state: LiveChatState): LiveChatState {
  return {
    ...state,
    items: state.items.map((item) => (item.streaming ? { ...item, streaming: false } : item)),
  };
}

/** `state` with item `key` changed by `change`. */
export function update(
  state: LiveChatState,
  key: string,
  change: (item: LiveChatItem) => Partial<LiveChatItem>,
): LiveChatState {
  return {
    ...state,
    items: state.items.map((item) => (item.key === key ? { ...item, ...change(item) } : item)),
  };
}

/** `state` with a stored entry added after the others. */
export function added(state: LiveChatState, key: string, entry: ChatHistoryEntry): LiveChatState {
  return { ...state, items: [...state.items, { key, entry, delivery: "sent", source: "message" }] };
}

/** Whether `state` shows item `key`. */
export function hasItem(state: LiveChatState, key: string): boolean {
  return state.items.some((item) => item.key === key);
}

/** `state` without item `key`. */
export function without(state: LiveChatState, key: string): LiveChatState {
  return { ...state, items: state.items.filter((item) => item.key !== key) };
}
