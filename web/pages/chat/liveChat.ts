import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { parseRepeat } from "./repeat";
import type { ChatStatus } from "./texts";

/**
 * The live items of one chat screen and the state machine of a send (spec 4 "Sending", "Split
 * replies", "Group chat", spec 8), as one pure reducer. Everything sent on this screen (text
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
}

export interface LiveChatState {
  /** In the order they were made on this screen. */
  items: LiveChatItem[];
  status: ChatStatus;
  /** A text send (or a continued reply) is in flight: spec 4, no other send meanwhile. */
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
  /** One round of a send: its pending item appears; `characterId` is the one to reply. */
  | { type: "queued"; key: string; entry: ChatHistoryEntry; clientMessageId: string }
  /** Retry of a failed text message: pending again, same client id. */
  | { type: "retried"; key: string }
  /** The request left: one-to-one waits for the stored entry, a group for its replies. */
  | { type: "sending"; group: boolean }
  /** spec 4 stream: the stored entry arrived (gives chatHistoryUUID); the reply starts empty. */
  | { type: "entryStored"; key: string; entry: ChatHistoryEntry }
  /** One piece of reply text for item `key`. */
  | { type: "token"; key: string; text: string }
  /** The whole reply: `parts` when it is split; `streamed` when its text already streamed in. */
  | { type: "replied"; key: string; entry: ChatHistoryEntry; parts?: string[]; streamed: boolean }
  /** The request ended without a reply (401/503, already answered by the client). */
  | { type: "streamEnded" }
  /** The send failed: the stored entry when the server kept the message, else 'Failed'. */
  | { type: "failed"; key: string; stored?: ChatHistoryEntry }
  /** A split or group reveal starts or ends (the typing indicator stays meanwhile). */
  | { type: "revealStarted" }
  | { type: "revealEnded" }
  /** Split reply: the first `count` parts are shown. */
  | { type: "partsRevealed"; key: string; parts: string[]; count: number }
  /** Group reply `index` from `characterId`: index 0 fills the sent item, the others follow it. */
  | { type: "groupReplyNext"; characterId: string }
  | { type: "groupReplied"; key: string; index: number; entry: ChatHistoryEntry }
  | { type: "online" }
  /** Continue the reply of `entry` (its bubble is item `key`, added when not on screen yet). */
  | { type: "continueStarted"; key: string; entry: ChatHistoryEntry }
  | { type: "continueEnded"; key: string; ok: boolean; stored?: ChatHistoryEntry }
  /** A photo or picture request appears (pending). */
  | { type: "pictureQueued"; key: string; entry: ChatHistoryEntry }
  /** It failed; a photo's bubble then reads `message` (spec 8 'Photo upload failed...'). */
  | { type: "pictureFailed"; key: string; message?: string }
  /** Retry: pending again; a photo's bubble reads its own words again. */
  | { type: "pictureRetried"; key: string; message?: string }
  /** Stored: the server's entry replaces the local one until the refetched history has it. */
  | { type: "pictureStored"; key: string; entry: ChatHistoryEntry }
  | { type: "pictureSettled"; key: string };

function update(
  state: LiveChatState,
  key: string,
  change: (item: LiveChatItem) => LiveChatItem,
): LiveChatItem[] {
  return state.items.map((item) => (item.key === key ? change(item) : item));
}

/** The live-chat reducer: pure, one action at a time (see `LiveChatAction`). */
export function liveChatReducer(state: LiveChatState, action: LiveChatAction): LiveChatState {
  switch (action.type) {
    case "started":
      return { ...state, busy: true };
    case "finished":
      return { ...state, busy: false, replyingCharacterId: "" };
    case "queued":
      return {
        ...state,
        replyingCharacterId: action.entry.characterUUID,
        items: [
          ...state.items,
          {
            key: action.key,
            entry: action.entry,
            delivery: "pending",
            clientMessageId: action.clientMessageId,
            source: "message",
          },
        ],
      };
    case "retried":
      return { ...state, items: update(state, action.key, (item) => ({ ...item, delivery: "pending" })) };
    case "sending":
      return { ...state, status: action.group ? "replying..." : "sending..." };
    case "entryStored":
      return {
        ...state,
        status: "replying...",
        streamingId: action.entry.chatHistoryUUID,
        items: update(state, action.key, (item) => ({
          ...item,
          delivery: "sent",
          streaming: true,
          entry: { ...action.entry, chatHistoryReplyMessage: "" },
        })),
      };
    case "token":
      return {
        ...state,
        status: "replying...",
        items: update(state, action.key, (item) => ({
          ...item,
          streaming: true,
          entry: { ...item.entry, chatHistoryReplyMessage: item.entry.chatHistoryReplyMessage + action.text },
        })),
      };
    case "replied":
      return {
        ...state,
        status: "online",
        streamingId: "",
        items: update(state, action.key, (item) => ({
          ...item,
          entry: action.entry,
          delivery: "sent",
          streaming: false,
          // Text the user already watched stream in is not hidden again to be revealed part by part.
          replyParts: action.parts ? (action.streamed ? action.parts : []) : undefined,
        })),
      };
    case "streamEnded":
      return { ...state, streamingId: "" };
    case "failed":
      return {
        ...state,
        status: "away",
        streamingId: "",
        items: update(state, action.key, (item) =>
          action.stored
            ? { ...item, entry: action.stored, delivery: "sent", streaming: false }
            : { ...item, delivery: "failed", streaming: false },
        ),
      };
    case "revealStarted":
      return { ...state, revealing: state.revealing + 1 };
    case "revealEnded":
      return { ...state, revealing: state.revealing - 1 };
    case "partsRevealed":
      return {
        ...state,
        items: update(state, action.key, (item) => ({
          ...item,
          replyParts: action.parts.slice(0, action.count),
        })),
      };
    case "groupReplyNext":
      return { ...state, replyingCharacterId: action.characterId };
    case "groupReplied":
      if (action.index === 0) {
        return {
          ...state,
          items: update(state, action.key, (item) => ({ ...item, entry: action.entry, delivery: "sent" })),
        };
      }
      return {
        ...state,
        items: [
          ...state.items,
          { key: `${action.key}:${action.index}`, entry: action.entry, delivery: "sent", source: "message" },
        ],
      };
    case "online":
      return { ...state, status: "online" };
    case "continueStarted": {
      const onScreen = state.items.some((item) => item.key === action.key);
      return {
        ...state,
        status: "replying...",
        replyingCharacterId: action.entry.characterUUID,
        streamingId: action.entry.chatHistoryUUID,
        items: onScreen
          ? update(state, action.key, (item) => ({ ...item, replyParts: undefined }))
          : [...state.items, { key: action.key, entry: action.entry, delivery: "sent", source: "message" }],
      };
    }
    case "continueEnded":
      return {
        ...state,
        status: action.ok ? "online" : "away",
        streamingId: "",
        items: update(state, action.key, (item) => ({
          ...item,
          entry: action.stored ?? item.entry,
          streaming: false,
        })),
      };
    case "pictureQueued":
      return {
        ...state,
        items: [
          ...state.items,
          { key: action.key, entry: action.entry, delivery: "pending", source: "picture" },
        ],
      };
    case "pictureFailed":
    case "pictureRetried": {
      const delivery = action.type === "pictureFailed" ? "failed" : "pending";
      const message = action.message;
      return {
        ...state,
        items: update(state, action.key, (item) => ({
          ...item,
          delivery,
          entry: message === undefined ? item.entry : { ...item.entry, chatHistoryMessage: message },
        })),
      };
    }
    case "pictureStored":
      return {
        ...state,
        items: update(state, action.key, (item) => ({ ...item, entry: action.entry, delivery: "sent" })),
      };
    case "pictureSettled":
      return { ...state, items: state.items.filter((item) => item.key !== action.key) };
  }
}

/** What the screen derives from the state (spec 4: one send at a time). */
export function liveChatView(state: LiveChatState, hasTarget: boolean) {
  return {
    /** spec 4: the user can send only when ready (no send in flight). */
    canSend: hasTarget && !state.busy,
    /** A reply is on its way (the typing indicator shows). */
    isReplying: state.busy || state.revealing > 0,
    /** A reply is streaming and can be stopped. */
    canStop: state.streamingId !== "",
  };
}

/**
 * spec 4, 5: what typing `text` sends: the trimmed text and how often ('.. N.' repeats it, at
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

/** spec 4 "Split replies": the non-empty parts of a split reply, or undefined for one message. */
export function splitParts(reply: MessageReply): string[] | undefined {
  const options = reply.options;
  if (options === undefined || options.splitCount <= 1) return undefined;
  const parts = options.splitMessages.filter((part) => part.trim() !== "");
  return parts.length > 1 ? parts : undefined;
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
 * one, with the picture's state taken from the history (which polls while it loads, issue 8).
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
