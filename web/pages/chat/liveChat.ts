// The live items of one chat screen and the send state machine (product.md §4 "Sending", §8), as one pure reducer.
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { type EditAction, editReducer } from "./liveChatEdits";
import { type GroupAction, groupReducer } from "./liveChatGroup";
import { type SendAction, sendReducer } from "./liveChatSend";
import type { LiveChatItem, LiveChatState } from "./liveChatState";
import { type StreamAction, streamReducer } from "./liveChatStream";
import { parseRepeat } from "./repeat";

/**
 * The live items of one chat screen and the state machine of a send (product.md §4 "Sending", "Split
 * replies", "Group chat", product.md §8), as one pure reducer. Everything sent on this screen (text
 * messages, continued replies, photos and picture requests) lives here until the history holds
 * it; `conversationItems` lays the history and these items out as the one list the screen shows.
 *
 * A send goes idle → `sending...` (one-to-one, until the stored entry arrives) or `replying...`
 * (group) → `replying...` while tokens arrive → `online` when the reply is there, or `away` when
 * it failed (the item is then 'Failed' with a Retry that reuses its client id).
 *
 * The reducer is split by event family: a send's life (liveChatSend.ts), a reply's stream
 * (liveChatStream.ts), split and group replies (liveChatGroup.ts) and changes to stored entries
 * (liveChatEdits.ts).
 */

export { initialLiveChat, type LiveChatItem, type LiveChatState, memberKey } from "./liveChatState";

/** Every event of the live chat, one family per file (see each family's type for its events). */
export type LiveChatAction = SendAction | StreamAction | GroupAction | EditAction;

/** The live-chat reducer: pure, one action at a time (see `LiveChatAction`), each handed to its family's reducer. */
export function liveChatReducer(state: LiveChatState, action: LiveChatAction): LiveChatState {
  switch (action.type) {
    case "started":
    case "finished":
    case "queued":
    case "pending":
    case "status":
    case "failed":
    case "pictureFailed":
    case "settled":
    case "refused":
      return sendReducer(state, action);
    case "entryStored":
    case "token":
    case "replied":
    case "streamEnded":
    case "lost":
    case "followStarted":
    case "followEnded":
      return streamReducer(state, action);
    case "reveal":
    case "partsRevealed":
    case "replyingTo":
    case "stored":
    case "added":
    case "memberStarted":
    case "groupReplied":
      return groupReducer(state, action);
    case "continueStarted":
    case "continueEnded":
    case "regenerateStarted":
    case "entryReplaced":
    case "entriesRemoved":
      return editReducer(state, action);
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
