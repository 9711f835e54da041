// The full-text index of the chats' messages (search): SQLite FTS5 kept by triggers, PostgreSQL a GIN expression index.
import { type Kysely, type Migration, SqliteAdapter, sql } from "kysely";

/** Whether the migration runs on SQLite (else PostgreSQL). */
export function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * The PostgreSQL text a history entry is searched by: the user's message and the reply shown,
 * with the 'simple' configuration (no stemming, no stop words: every language matches). The
 * search repo's query repeats this expression exactly, so the planner uses the index.
 */
export const PG_SEARCH_VECTOR = "to_tsvector('simple', message || ' ' || reply_message)";

/**
 * Search (product.md "Search"): an index over every history entry's message and shown reply
 * (chat_history.message, chat_history.reply_message: a swipe's choice and an edit write there).
 * The database keeps it in step by itself, so no write path (send, reply, edit, delete, rewind,
 * swipe, chat deletion, account erasure) can forget it:
 * - SQLite: the FTS5 table `message_search` (its own copy of the texts, diacritics folded) whose
 *   rowid is `message_search_rows.row`, the entry's stable number (a plain table's rowid may
 *   change on VACUUM); AFTER INSERT / UPDATE / DELETE triggers on chat_history write both.
 * - PostgreSQL: a GIN index on the entry's tsvector expression (PG_SEARCH_VECTOR), always in step.
 * Existing entries are indexed here.
 */
export const searchMigrations: Record<string, Migration> = {
  "0033_message_search": {
    async up(db: Kysely<unknown>) {
      if (!isSqlite(db)) {
        await sql`create index chat_history_search on chat_history using gin (${sql.raw(PG_SEARCH_VECTOR)})`.execute(
          db,
        );
        return;
      }
      await sql`create table message_search_rows (row integer primary key, entry_id text not null unique)`.execute(
        db,
      );
      await sql`create virtual table message_search using fts5(message, reply, tokenize = 'unicode61 remove_diacritics 2')`.execute(
        db,
      );
      await sql`create trigger message_search_insert after insert on chat_history begin
        insert into message_search_rows (entry_id) values (new.id);
        insert into message_search (rowid, message, reply) values (last_insert_rowid(), new.message, new.reply_message);
      end`.execute(db);
      await sql`create trigger message_search_update after update of message, reply_message on chat_history
        when old.message is not new.message or old.reply_message is not new.reply_message begin
        update message_search set message = new.message, reply = new.reply_message
          where rowid = (select row from message_search_rows where entry_id = new.id);
      end`.execute(db);
      await sql`create trigger message_search_delete after delete on chat_history begin
        delete from message_search where rowid = (select row from message_search_rows where entry_id = old.id);
        delete from message_search_rows where entry_id = old.id;
      end`.execute(db);
      await sql`insert into message_search_rows (entry_id) select id from chat_history`.execute(db);
      await sql`insert into message_search (rowid, message, reply)
        select r.row, h.message, h.reply_message from message_search_rows r join chat_history h on h.id = r.entry_id`.execute(
        db,
      );
    },
  },
};
