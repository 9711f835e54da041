// Changes to the cached chat history pages (replace, remove entries), and which entries are greetings, pictures or may be regenerated.
import type { InfiniteData } from "@tanstack/react-query";
import type { ChatHistoryEntry } from "../../../common/api";
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { LiveChatItem } from "./liveChat";

/** The cached pages of one chat's history (useChatHistory's infinite query: offset per page). */
export type HistoryPages = InfiniteData<ChatHistoryEntry[], number>;

/**
 * the cached history with the changed `entry` (a swipe, an edit, a regenerated reply)
 * in place of the entry with its chatHistoryUUID, wherever it is; every other entry as it was.
 * @returns `data` itself when no page holds the entry (nothing to change), or when it is undefined.
 */
export function replaceInHistory(
  data: HistoryPages | undefined,
  entry: ChatHistoryEntry,
): HistoryPages | undefined {
  const id = entry.chatHistoryUUID;
  if (data === undefined || !data.pages.some((page) => page.some((e) => e.chatHistoryUUID === id)))
    return data;
  return {
    ...data,
    pages: data.pages.map((page) => page.map((e) => (e.chatHistoryUUID === id ? entry : e))),
  };
}

/**
 * the cached history without the entries `ids` (a delete, a rewind: RemovedEntries'
 * `removed`); every other entry kept in its place. The page offsets no longer match the server's
 * afterwards: the caller refetches the loaded pages.
 */
export function removeFromHistory(
  data: HistoryPages | undefined,
  ids: readonly string[],
): HistoryPages | undefined {
  if (data === undefined || ids.length === 0) return data;
  const gone = new Set(ids);
  return { ...data, pages: data.pages.map((page) => page.filter((e) => !gone.has(e.chatHistoryUUID))) };
}

/** Whether `entry` is a greeting (product.md §4 "##first-message##"): its swipes are the card's, never regenerated. */
export function isGreeting(entry: ChatHistoryEntry): boolean {
  return entry.chatHistoryMessage === FIRST_MESSAGE_MARKER;
}

/**
 * Whether `entry`'s reply is a picture, made or being made, with or without words: new words would
 * sit under a picture they did not come with, so it is neither regenerated nor continued (the
 * server refuses both too).
 */
export function isPictureReply(entry: ChatHistoryEntry): boolean {
  return entry.chatHistoryImageLoading === 1 || Boolean(entry.chatHistoryReplyImage);
}

/**
 * "Swipes": the entries whose reply may be regenerated now: the newest stored entry of a
 * single chat, or the newest of each member in a group; never a greeting, a picture, a reply
 * still pending or failed, or an entry not stored yet.
 * @param items the conversation as shown, oldest first.
 */
export function regenerableIds(items: readonly LiveChatItem[], isGroup: boolean): Set<string> {
  const newest = new Map<string, ChatHistoryEntry>();
  for (const { entry } of items) {
    if (entry.chatHistoryUUID === "") continue;
    newest.set(isGroup ? entry.characterUUID : "", entry);
  }
  const ids = new Set<string>();
  for (const entry of newest.values()) {
    const settled =
      entry.chatHistoryStatus === undefined ||
      ["replied", "stopped", "partial"].includes(entry.chatHistoryStatus);
    if (!isGreeting(entry) && !isPictureReply(entry) && settled) ids.add(entry.chatHistoryUUID);
  }
  return ids;
}
