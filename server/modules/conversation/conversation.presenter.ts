// A chat history entry as the client gets it (product.md §3 "Chat history entry"), with its swipes.
import type { ChatHistoryEntry } from "../../../common/api";
import type { ChatHistoryRow } from "../../db/schema";

const STATUSES = new Set(["pending", "replied", "stopped", "partial", "failed"]);
const iso = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString());

/**
 * product.md §3 "Chat history entry"; times as ISO 8601, reply fields empty until the reply exists.
 * @param swipes the entry's replies when it has two or more, with the
 *   chosen one's index (row.swipe_index); left out otherwise.
 */
export function presentHistoryEntry(row: ChatHistoryRow, swipes?: string[]): ChatHistoryEntry {
  const shown =
    swipes && swipes.length >= 2 ? { chatHistorySwipes: swipes, chatHistorySwipeIndex: row.swipe_index } : {};
  return {
    chatHistoryUUID: row.id,
    characterUUID: row.character_id,
    chatHistoryMessage: row.message,
    chatHistoryMessageImage: row.message_image,
    chatHistorySendTime: iso(row.send_time),
    chatHistoryReplyMessage: row.reply_message,
    chatHistoryReplyImage: row.reply_image,
    chatHistoryReplyAudioUrl: row.reply_audio_url,
    chatHistoryReplyTime: iso(row.reply_time),
    chatHistoryImageLoading: row.image_loading ? 1 : 0,
    chatHistoryStatus: STATUSES.has(row.status)
      ? (row.status as ChatHistoryEntry["chatHistoryStatus"])
      : "replied",
    ...shown,
  };
}
