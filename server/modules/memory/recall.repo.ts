// Database access of recall: the stemmed full-text ranking of one chat's messages (SQLite FTS5 bm25, PostgreSQL ts_rank), their neighbours, and the chat's switch.
import { sql } from "kysely";
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { DbHandle } from "../../db/index";
import { PG_RECALL_COLUMNS } from "../../db/migrations/recall";
import type { RecallMessage } from "../prompt/recall-port";

/** One side of an entry the word search ranked, best first. */
export interface RankedSide {
  entryId: string;
  side: "user" | "reply";
  /** The database's relevance, higher is better (BM25 on SQLite, ts_rank on PostgreSQL: not comparable across the two). */
  score: number;
}

/** A ranked row as the caller takes it. */
const ranked = (row: { entry_id: string; side: number; score: number }): RankedSide => ({
  entryId: row.entry_id,
  side: Number(row.side) === 0 ? "user" : "reply",
  score: Number(row.score),
});

/** An entry as recall reads it, with the ids of the entries just before and after it. */
interface EntryRow {
  id: string;
  seq: number;
  message: string;
  reply_message: string;
  send_time: number;
  reply_time: number | null;
  character_id: string;
  prev_id?: string | null;
  next_id?: string | null;
}

/** An entry's two sides as recall messages (the greeting marker is no one's words: no user side). */
export function entrySides(row: EntryRow): { user?: RecallMessage; reply?: RecallMessage } {
  const base = { entryId: row.id, seq: Number(row.seq), characterId: row.character_id };
  const sendTime = Number(row.send_time);
  return {
    user:
      row.message && row.message !== FIRST_MESSAGE_MARKER
        ? { ...base, side: "user", text: row.message, time: sendTime }
        : undefined,
    reply: row.reply_message
      ? { ...base, side: "reply", text: row.reply_message, time: Number(row.reply_time ?? sendTime) }
      : undefined,
  };
}

/**
 * Recall's queries. Every query is limited to one chat session, whose id the caller took from a
 * chat it resolved for the signed-in user (so another user's messages can never be read).
 */
export class RecallRepo {
  constructor(private readonly handle: DbHandle) {}

  /**
   * The sides of the session's entries holding any of `terms` (stemmed by the database), best
   * first by BM25 (SQLite FTS5's; on PostgreSQL rankPostgres's), at most `limit`;
   * only entries sent in `period` (epoch ms, `to` excluded) when given.
   * @param terms letters and digits only (recall-terms.ts), at least one.
   */
  async rank(
    sessionId: string,
    terms: readonly string[],
    limit: number,
    period?: { from: number; to: number },
  ): Promise<RankedSide[]> {
    if (terms.length === 0) return [];
    const db = this.handle.db;
    const within = period ? sql`and h.send_time >= ${period.from} and h.send_time < ${period.to}` : sql``;
    if (this.handle.dialect === "sqlite") {
      const chat = `s${sessionId.replaceAll("-", "")}`.replace(/[^\p{L}\p{N}]/gu, "");
      const words = terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
      const match = `chat : "${chat}" AND text : (${words})`;
      const best = sql`select m.rowid as row, -bm25(message_recall, 0.0, 1.0) as score from message_recall m
        ${period ? sql`join message_search_rows r on r.row = m.rowid / 2 join chat_history h on h.id = r.entry_id` : sql``}
        where message_recall match ${match} ${within} order by score desc limit ${limit}`;
      const { rows } = await sql<{ entry_id: string; side: number; score: number }>`select r.entry_id,
          x.row % 2 as side, x.score from (${best}) x join message_search_rows r on r.row = x.row / 2
        order by x.score desc`.execute(db);
      return rows.map(ranked);
    }
    return this.rankPostgres(sessionId, terms, limit, within);
  }

  /**
   * PostgreSQL's ranking: BM25 over the sides matching any term (ts_rank knows no inverse document
   * frequency, so a name said all through a chat would outweigh the rare word a question is about).
   * Each term's document frequency and N are counted among the session's sides that match any
   * term (the whole session's count cost a scan of it; among the matches a term found in most of
   * them weighs nearly nothing, as it should), a side's length is its lexemes; a term counts once
   * per side (k1 1.2, b 0.75).
   */
  private async rankPostgres(
    sessionId: string,
    terms: readonly string[],
    limit: number,
    within: ReturnType<typeof sql>,
  ): Promise<RankedSide[]> {
    const quoted = (t: string) => `'${t.replaceAll("'", "''").replaceAll("\\", "\\\\")}'`;
    const any = terms.map(quoted).join(" | ");
    const user = sql.raw(PG_RECALL_COLUMNS.user);
    const reply = sql.raw(PG_RECALL_COLUMNS.reply);
    // Each term's tsquery is made once (in q), not once per row.
    const tsqueries = terms.map((t, i) => sql`to_tsquery('english', ${quoted(t)}) as ${sql.raw(`t${i}`)}`);
    const has = terms.map((_, i) => sql`(v @@ q.${sql.raw(`t${i}`)})::int as ${sql.raw(`m${i}`)}`);
    const df = terms.map((_, i) => sql`sum(${sql.raw(`m${i}`)}) over ()::float8 as ${sql.raw(`d${i}`)}`);
    const idf = terms.map(
      (_, i) =>
        sql`${sql.raw(`m${i}`)} * ln(1 + (c.n - ${sql.raw(`d${i}`)} + 0.5) / (${sql.raw(`d${i}`)} + 0.5))`,
    );
    // Scores in float8: numeric's ln() over a common question's 1 800 matches took 35 ms.
    // The matches' query is written in each WHERE, not read from q: as a value known when the
    // query is planned, the GIN index of the session and the words (0038_recall_by_chat) can be used.
    const { rows } = await sql<{ entry_id: string; side: number; score: number }>`with q as (
        select ${sql.join(tsqueries)}),
      matched as (
        select h.id as entry_id, 0 as side, h.${user} as v from chat_history h
          where h.session_id = ${sessionId} and h.${user} @@ to_tsquery('english', ${any}) ${within}
        union all
        select h.id as entry_id, 1 as side, h.${reply} as v from chat_history h
          where h.session_id = ${sessionId} and h.${reply} @@ to_tsquery('english', ${any}) ${within}),
      marked as (select entry_id, side, greatest(length(v), 1)::float8 as len, ${sql.join(has)} from matched, q),
      counted as (select *, ${sql.join(df)}, avg(len) over ()::float8 as avglen, count(*) over ()::float8 as n from marked)
      select entry_id, side, (${sql.join(idf, sql` + `)}) * 2.2::float8 / (1 + 1.2::float8 * (0.25::float8 + 0.75::float8 * len / avglen)) as score
      from counted c
      order by score desc, entry_id limit ${limit}`.execute(this.handle.db);
    return rows.map(ranked);
  }

  /**
   * The session's entries of `ids`; for those also in `around`, the ids of the entries just before
   * and after each (by order key), and those neighbouring entries too. @returns entries by id.
   */
  async entriesAround(
    sessionId: string,
    ids: readonly string[],
    around: ReadonlySet<string> = new Set(ids),
  ): Promise<Map<string, EntryRow>> {
    const found = new Map<string, EntryRow>();
    if (ids.length === 0) return found;
    const db = this.handle.db;
    const columns = sql`h.id, h.seq, h.message, h.reply_message, h.send_time, h.reply_time, h.character_id`;
    const near = ids.filter((id) => around.has(id));
    const isNear = near.length > 0 ? sql`h.id in (${sql.join(near)})` : sql`1 = 0`;
    // Found by id (the primary key); `session_id || ''` keeps the planner from scanning the
    // session's index instead, while every row is still checked to be the session's. One query
    // reads the entries and their neighbours (two round trips took twice as long on PostgreSQL).
    const { rows } = await sql<EntryRow>`with hits as (select ${columns},
        case when ${isNear} then (select p.id from chat_history p where p.session_id = h.session_id
          and p.seq < h.seq order by p.seq desc limit 1) end as prev_id,
        case when ${isNear} then (select n.id from chat_history n where n.session_id = h.session_id
          and n.seq > h.seq order by n.seq asc limit 1) end as next_id
      from chat_history h where h.id in (${sql.join([...ids])}) and h.session_id || '' = ${sessionId})
      select * from hits
      union all
      select ${columns}, null as prev_id, null as next_id from chat_history h
        where h.id in (select prev_id from hits union select next_id from hits)
          and h.id not in (select id from hits) and h.session_id || '' = ${sessionId}`.execute(db);
    for (const row of rows) found.set(row.id, row);
    return found;
  }

  /** The user's newest words in the session ("" when they never wrote; the greeting marker is no one's words). */
  async lastUserWords(sessionId: string): Promise<string> {
    const row = await this.handle.db
      .selectFrom("chat_history")
      .select("message")
      .where("session_id", "=", sessionId)
      .where("message", "!=", "")
      .where("message", "!=", FIRST_MESSAGE_MARKER)
      .orderBy("seq", "desc")
      .limit(1)
      .executeTakeFirst();
    return row?.message ?? "";
  }

  /** Whether recall is on for the session (on when the session is unknown: it has no messages to recall). */
  async enabled(sessionId: string): Promise<boolean> {
    const row = await this.handle.db
      .selectFrom("chat_sessions")
      .select("recall")
      .where("id", "=", sessionId)
      .executeTakeFirst();
    return row === undefined || Number(row.recall) !== 0;
  }

  /** Switches recall on or off for the session. */
  async setEnabled(sessionId: string, enabled: boolean): Promise<void> {
    await this.handle.db
      .updateTable("chat_sessions")
      .set({ recall: enabled ? 1 : 0 })
      .where("id", "=", sessionId)
      .execute();
  }
}
