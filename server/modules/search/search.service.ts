// Message search (product.md "Search"): the user's words and the replies of their own chats, newest first, the match marked.
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import { SEARCH_RESULTS_MAX, type SearchHit } from "../../../common/search";
import { notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import { parseMarked, searchTerms } from "./search.query";
import type { MatchRow, SearchRepo } from "./search.repo";

/**
 * Searches the messages a user sees in their chats: their own messages and the replies as shown
 * (the chosen swipe, edits applied), never another user's.
 */
export class SearchService {
  constructor(private readonly repo: SearchRepo) {}

  /**
   * The messages holding every word of `query` (word prefixes, case and accents ignored on
   * SQLite, case on PostgreSQL), newest first, at most SEARCH_RESULTS_MAX; one hit per side that
   * matched. A query without letters or digits finds nothing.
   * @param chatKey only this chat (a character or group id of the user).
   * @throws AppError not_found (404) when `chatKey` is not one of the user's chats.
   */
  async search(userId: string, query: string, chatKey?: string): Promise<SearchHit[]> {
    if (chatKey !== undefined && !(await this.repo.ownsChat(userId, chatKey))) {
      throw notFound(msg("conversation.chatNotFound"));
    }
    const terms = searchTerms(query);
    if (terms.length === 0) return [];
    const rows = await this.repo.matches(userId, terms, SEARCH_RESULTS_MAX, chatKey);
    return rows.flatMap(toHits).slice(0, SEARCH_RESULTS_MAX);
  }
}

/** The hits of one matched entry: its user side and its reply side, each when its text matched. */
function toHits(row: MatchRow): SearchHit[] {
  const base = {
    chatId: row.chat_key,
    isGroup: Number(row.is_group) === 1,
    characterId: row.character_id,
    characterName: row.character_name ?? "",
    entryId: row.id,
    newer: Number(row.newer),
  };
  const hits: SearchHit[] = [];
  const reply = parseMarked(row.reply_snippet ?? "");
  if (reply.marks.length > 0) {
    hits.push({ ...base, side: "reply", time: Number(row.reply_time ?? row.send_time), ...reply });
  }
  const message = parseMarked(row.message_snippet ?? "");
  if (message.marks.length > 0 && row.message !== FIRST_MESSAGE_MARKER) {
    hits.push({ ...base, side: "user", time: Number(row.send_time), ...message });
  }
  return hits;
}
