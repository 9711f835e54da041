// Database access of message search: the full-text query over the user's own chats, on SQLite (FTS5) and PostgreSQL.
import { sql } from "kysely";
import type { Db, DbHandle } from "../../db/index";
import { PG_SEARCH_VECTOR } from "../../db/migrations/search";
import { ftsMatch, MARK_END, MARK_START, tsQuery } from "./search.query";

/** One history entry that matched, with both of its texts' snippets (marked with MARK_START/MARK_END). */
export interface MatchRow {
  id: string;
  chat_key: string;
  is_group: number;
  character_id: string;
  character_name: string | null;
  message: string;
  send_time: number;
  reply_time: number | null;
  message_snippet: string;
  reply_snippet: string;
  /** Entries of the chat newer than this one. */
  newer: number;
}

/** Words around a match in a snippet. */
const SNIPPET_WORDS = 16;

/**
 * The search index's queries (the index itself is kept by the database: server/db/migrations/search.ts).
 * Every query is limited to the chats of one user (chat_sessions.user_id).
 */
export class SearchRepo {
  constructor(private readonly handle: DbHandle) {}

  /**
   * The user's entries whose message or shown reply holds every term (as a word prefix), newest
   * first, at most `limit`; only chat `chatKey` when given.
   * @param terms letters and digits only (searchTerms), at least one.
   */
  async matches(userId: string, terms: string[], limit: number, chatKey?: string): Promise<MatchRow[]> {
    const db = this.handle.db;
    const inChat = chatKey === undefined ? sql`` : sql`and s.chat_key = ${chatKey}`;
    const common = sql`h.id, s.chat_key, s.is_group, h.character_id, c.name as character_name, h.message,
      h.send_time, h.reply_time,
      (select count(*) from chat_history n where n.session_id = h.session_id and n.seq > h.seq) as newer`;
    if (this.handle.dialect === "sqlite") {
      const result = await sql<MatchRow>`select ${common},
          snippet(message_search, 0, ${MARK_START}, ${MARK_END}, '…', ${SNIPPET_WORDS}) as message_snippet,
          snippet(message_search, 1, ${MARK_START}, ${MARK_END}, '…', ${SNIPPET_WORDS}) as reply_snippet
        from message_search m
        join message_search_rows r on r.row = m.rowid
        join chat_history h on h.id = r.entry_id
        join chat_sessions s on s.id = h.session_id
        left join characters c on c.id = h.character_id
        where message_search match ${ftsMatch(terms)} and s.user_id = ${userId} ${inChat}
        order by h.seq desc limit ${limit}`.execute(db);
      return result.rows;
    }
    const options = `StartSel="${MARK_START}", StopSel="${MARK_END}", MaxWords=${SNIPPET_WORDS * 2}, MinWords=${SNIPPET_WORDS / 2}`;
    const result = await sql<MatchRow>`select ${common},
        ts_headline('simple', h.message, q.query, ${options}) as message_snippet,
        ts_headline('simple', h.reply_message, q.query, ${options}) as reply_snippet
      from (select to_tsquery('simple', ${tsQuery(terms)}) as query) q
      join chat_history h on ${sql.raw(PG_SEARCH_VECTOR.replace(/\b(message|reply_message)\b/g, "h.$1"))} @@ q.query
      join chat_sessions s on s.id = h.session_id
      left join characters c on c.id = h.character_id
      where s.user_id = ${userId} ${inChat}
      order by h.seq desc limit ${limit}`.execute(db);
    return result.rows;
  }

  /** Whether `chatKey` names a chat of the user: a session, or a character or group of theirs. */
  async ownsChat(userId: string, chatKey: string): Promise<boolean> {
    const db: Db = this.handle.db;
    const session = await db
      .selectFrom("chat_sessions")
      .select("id")
      .where("user_id", "=", userId)
      .where("chat_key", "=", chatKey)
      .executeTakeFirst();
    if (session) return true;
    const character = await db
      .selectFrom("characters")
      .select("id")
      .where("user_id", "=", userId)
      .where("id", "=", chatKey)
      .executeTakeFirst();
    if (character) return true;
    const group = await db
      .selectFrom("chat_groups")
      .select("id")
      .where("user_id", "=", userId)
      .where("id", "=", chatKey)
      .executeTakeFirst();
    return group !== undefined;
  }
}
