import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { parseRepeat } from "./repeat";
import type { ChatStatus } from "./texts";

/**
 * The live items of one chat screen and the state machine of a send (product.md §4 "Sending", "Split
 * replies", "Group chat", product.md §8), as one pure reducer. Everything sent on this screen (text
 * messages, continued replies, photos and picture requests) lives here until the history holds
 * it; `conversationItems` lays the history and these items out as the one list the screen shows.
 *
 * A send goes idle → `sending...` (one-to-one, until the stored entry arrives) or `replying...`
 * (group) → `replying...` while tokens arrive → `online` when the reply is there, or `away` when
 * it failed (the item is then 'Failed' with a Retry that reuses its client id).
 */

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

export type LiveChatAction =
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
  /** product.md §4 stream: the stored entry arrived (gives chatHistoryUUID); the reply starts empty. */
  | { type: "entryStored"; key: string; entry: ChatHistoryEntry }
  /** One piece of reply text for item `key`. */
  | { type: "token"; key: string; text: string }
  /** The whole reply: `parts` when it is split; `streamed` when its text already streamed in. */
  | { type: "replied"; key: string; entry: ChatHistoryEntry; parts?: string[]; streamed: boolean }
  /** The request ended without a reply (401/503, already answered by the client). */
  | { type: "streamEnded" }
  /** The send failed: the stored entry when the server kept the message, else 'Failed'. */
  | { type: "failed"; key: string; stored?: ChatHistoryEntry }
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
  | { type: "groupReplied"; key: string; entries: ChatHistoryEntry[]; ok: boolean }
  /** Continue the reply of `entry` (its bubble is item `key`, added when not on screen yet). */
  | { type: "continueStarted"; key: string; entry: ChatHistoryEntry }
  | { type: "continueEnded"; key: string; ok: boolean; stored?: ChatHistoryEntry }
  /** A photo or picture request failed; a photo's bubble then reads `message` (product.md §8). */
  | { type: "pictureFailed"; key: string; message?: string }
  /** The refetched history holds item `key`: it leaves the live items. */
  | { type: "settled"; key: string }
  /**
   * the server refused the send and named a page to open (e.g. 429 at the limit with
   * page /pricing): the message is not 'Failed'; kept as sent when stored, else it leaves.
   */
  | { type: "refused"; key: string; stored?: ChatHistoryEntry }
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
  | { type: "followEnded"; key: string; ok: boolean }
  /**
   * a new reply for `entry` starts (regenerate): its bubble is item `key` (added when
   * not on screen yet), its text empty and streaming; it ends with `continueEnded`.
   */
  | { type: "regenerateStarted"; key: string; entry: ChatHistoryEntry }
  /** the server changed a stored entry (swipe, edit): the items holding it show it whole. */
  | { type: "entryReplaced"; entry: ChatHistoryEntry }
  /** these stored entries were removed (delete, rewind): the items holding them leave. */
  | { type: "entriesRemoved"; ids: string[] };

/** The item key of member `index`'s reply in the group send `key` (the first member's is `key`). */
export function memberKey(key: string, index: number): string {
  return index === 0 ? key : `${key}:${index}`;
}

/** `state` with no item streaming any more. */
function noneStreaming(state: LiveChatState): LiveChatState {
  return {
    ...state,
    items: state.items.map((item) => (item.streaming ? { ...item, streaming: false } : item)),
  };
}

/** `state` with item `key` changed by `change`. */
function update(
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
function added(state: LiveChatState, key: string, entry: ChatHistoryEntry): LiveChatState {
  return { ...state, items: [...state.items, { key, entry, delivery: "sent", source: "message" }] };
}

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

/** The live-chat reducer: pure, one action at a time (see `LiveChatAction`). */
export function liveChatReducer(state: LiveChatState, action: LiveChatAction): LiveChatState {
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
    case "failed":
      return update({ ...state, status: "away", streamingId: "" }, action.key, (item) => ({
        entry: action.stored ?? item.entry,
        delivery: action.stored ? "sent" : "failed",
        streaming: false,
        lost: false,
      }));
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
      };
      return {
        ...state,
        busy: true,
        status: "replying...",
        replyingCharacterId: entry.characterUUID,
        streamingId: entry.chatHistoryUUID,
        items: [...state.items.filter((other) => other.key !== key), item],
      };
    }
    case "followEnded":
      return {
        ...state,
        busy: false,
        status: action.ok ? "online" : "away",
        replyingCharacterId: "",
        streamingId: "",
        items: state.items.filter((item) => item.key !== action.key),
      };
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
      if (next.items.some((candidate) => candidate.key === itemKey)) return update(next, itemKey, () => item);
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
        next = next.items.some((item) => item.key === itemKey)
          ? update(next, itemKey, () => ({ entry, delivery: "sent" }))
          : added(next, itemKey, entry);
      }
      return next;
    }
    case "continueStarted": {
      const next: LiveChatState = {
        ...state,
        status: "replying...",
        replyingCharacterId: action.entry.characterUUID,
        streamingId: action.entry.chatHistoryUUID,
      };
      return state.items.some((item) => item.key === action.key)
        ? update(next, action.key, () => ({ replyParts: undefined }))
        : added(next, action.key, action.entry);
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
    case "settled":
      return { ...state, items: state.items.filter((item) => item.key !== action.key) };
    case "regenerateStarted": {
      const { key, entry } = action;
      const next = {
        ...state,
        status: "replying..." as const,
        replyingCharacterId: entry.characterUUID,
        streamingId: entry.chatHistoryUUID,
      };
      const item = {
        streaming: true,
        replyParts: undefined,
        entry: { ...entry, chatHistoryReplyMessage: "" },
      };
      return state.items.some((candidate) => candidate.key === key)
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
    case "refused": {
      const next = { ...state, status: "online" as const, streamingId: "" };
      const { stored } = action;
      if (stored !== undefined)
        return update(next, action.key, () => ({ entry: stored, delivery: "sent", streaming: false }));
      return { ...next, items: state.items.filter((item) => item.key !== action.key) };
    }
  }
}

/** What the screen derives from the state (product.md §4: one send at a time). */
export function liveChatView(state: LiveChatState, hasTarget: boolean) {
  return {
    /** product.md §4: the user can send only when ready (no send in flight). */
    canSend: hasTarget && !state.busy,
    /** A reply is on its way (the typing indicator shows). */
    isReplying: state.busy || state.revealing > 0,
    /** A reply is streaming and can be stopped. */
    canStop: state.streamingId !== "",
  };
}

/**
 * product.md §4, 5: what typing `text` sends: the trimmed text and how often ('.. N.' repeats it, at
 * most 5 times), or null when nothing may be sent (empty text, no character, a send in flight).
 */
export function planSend(
  state: LiveChatState,
  text: string,
  hasTarget: boolean,
): { message: string; count: number } | null {
  const { text: message, count } = parseRepeat(text);
  if (message === "" || !hasTarget || state.busy) return null;
  return { message, count };
}

/** The failed text message `key` to send again (its words and client id), or null. */
export function planRetry(
  state: LiveChatState,
  key: string,
): { message: string; clientMessageId: string } | null {
  if (state.busy) return null;
  const item = state.items.find((candidate) => candidate.key === key);
  if (item === undefined || item.delivery !== "failed" || !item.clientMessageId) return null;
  return { message: item.entry.chatHistoryMessage, clientMessageId: item.clientMessageId };
}

/** The item key a continued reply of `entry` goes to: its bubble on screen, else its id; null when busy. */
export function planContinue(state: LiveChatState, entry: ChatHistoryEntry): string | null {
  if (state.busy || entry.chatHistoryUUID === "") return null;
  const existing = state.items.find((item) => item.entry.chatHistoryUUID === entry.chatHistoryUUID);
  return existing?.key ?? entry.chatHistoryUUID;
}

/** product.md §4 "Split replies": the non-empty parts of a split reply, or undefined for one message. */
export function splitParts(reply: MessageReply): string[] | undefined {
  const options = reply.options;
  if (options === undefined || options.splitCount <= 1) return undefined;
  const parts = options.splitMessages.filter((part) => part.trim() !== "");
  return parts.length > 1 ? parts : undefined;
}

/**
 * product.md §4 "Split replies": each part's own audio (ours: `options.splitAudioUrls`, "" for a part
 * with nothing to say), when the reply is split and the server gave one per part; else [].
 */
export function splitAudioUrls(reply: MessageReply, parts: string[] | undefined): string[] {
  const urls = reply.options?.splitAudioUrls ?? [];
  if (parts === undefined || urls.length !== parts.length || !urls.some((url) => url !== "")) return [];
  return urls;
}

/** An entry not stored yet: the user's `message` (and photo `image`) as sent at `sentAt`. */
export function localEntry(characterId: string, message: string, sentAt: Date, image = ""): ChatHistoryEntry {
  return {
    chatHistoryUUID: "",
    characterUUID: characterId,
    chatHistoryMessage: message,
    chatHistoryMessageImage: image,
    chatHistorySendTime: sentAt.toISOString(),
    chatHistoryReplyMessage: "",
    chatHistoryReplyImage: "",
    chatHistoryReplyAudioUrl: "",
    chatHistoryReplyTime: "",
    chatHistoryImageLoading: 0,
  };
}

/**
 * The item to show for a stored history entry: the live item made on this screen when there is
 * one, with the picture's state taken from the history (which polls while it loads).
 */
function withStoredPicture(live: LiveChatItem | undefined, entry: ChatHistoryEntry): LiveChatItem {
  if (live === undefined) return { key: entry.chatHistoryUUID, entry, delivery: "sent" };
  const stored = entry.chatHistoryImageLoading === 1 || entry.chatHistoryReplyImage !== "";
  if (live.streaming || !stored) return live;
  return {
    ...live,
    entry: {
      ...live.entry,
      chatHistoryImageLoading: entry.chatHistoryImageLoading,
      chatHistoryReplyImage: entry.chatHistoryReplyImage,
    },
  };
}

/**
 * The one list the conversation shows: the loaded history (oldest first), each entry shown by
 * its live item when it was made on this screen, then the live items the history does not hold
 * yet: text messages in the order sent, then photos and picture requests.
 */
export function conversationItems(history: ChatHistoryEntry[], live: LiveChatItem[]): LiveChatItem[] {
  const byId = new Map(
    live
      .filter((item) => item.entry.chatHistoryUUID !== "")
      .map((item) => [item.entry.chatHistoryUUID, item]),
  );
  const stored = new Set(history.map((entry) => entry.chatHistoryUUID));
  const fresh = live.filter(
    (item) => item.entry.chatHistoryUUID === "" || !stored.has(item.entry.chatHistoryUUID),
  );
  return [
    ...history.map((entry) => withStoredPicture(byId.get(entry.chatHistoryUUID), entry)),
    ...fresh.filter((item) => item.source !== "picture"),
    ...fresh.filter((item) => item.source === "picture"),
  ];
}
