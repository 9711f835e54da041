// The 0038_recall_by_chat migration: PostgreSQL's recall indexes hold the chat's session with its words (btree_gin).
import { type Kysely, type Migration, sql } from "kysely";
import { PG_RECALL_COLUMNS } from "./recall";
import { isSqlite } from "./search";

/**
 * PostgreSQL: one chat's matches straight from the index. With btree_gin each recall column's
 * GIN index also holds the session id, so a search reads only the chat's matching rows: on a
 * 10 000-message chat among others, the session's btree index and a filter read every one of its
 * rows (8 ms a side) and this index 1 ms. Where the extension can't be created (not installed, or
 * the role may not), the single-column indexes stay: searches are slower, their results the same.
 * Without GIN's pending list (fastupdate off): each message is written into the index as it is
 * stored, instead of every search reading the list of recent ones (after a 10 000-message
 * import, 6 ms a search until vacuum merged it).
 */
export const recallByChatMigrations: Record<string, Migration> = {
  "0038_recall_by_chat": {
    async up(db: Kysely<unknown>) {
      if (isSqlite(db)) return;
      // Migrations run in a transaction on PostgreSQL: a refused extension must not abort it.
      await sql`savepoint recall_by_chat`.execute(db);
      try {
        await sql`create extension if not exists btree_gin`.execute(db);
      } catch {
        await sql`rollback to savepoint recall_by_chat`.execute(db);
        return;
      }
      for (const column of [PG_RECALL_COLUMNS.user, PG_RECALL_COLUMNS.reply]) {
        await sql`create index ${sql.raw(`chat_history_session_${column}`)} on chat_history
          using gin (session_id, ${sql.raw(column)}) with (fastupdate = off)`.execute(db);
        await sql`drop index ${sql.raw(`chat_history_${column}`)}`.execute(db);
      }
    },
  },
};
