// One name for a reply's versions from the database to the screen: "swipe" (the tables and columns said "alternative").
import { type Kysely, type Migration, SqliteAdapter, sql } from "kysely";

/**
 * Renames `chat_reply_alternatives` to `chat_reply_swipes` and `chat_history.alternative_index`
 * to `swipe_index`, as the API and the screen already said "swipe". On PostgreSQL the unique
 * constraint takes the new name too; SQLite cannot rename a constraint (its name is only text
 * in the table's definition there, and nothing refers to it).
 */
export const swipeNameMigrations: Record<string, Migration> = {
  "0034_swipe_names": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("chat_reply_alternatives").renameTo("chat_reply_swipes").execute();
      await db.schema.alterTable("chat_history").renameColumn("alternative_index", "swipe_index").execute();
      if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
        await sql`alter table chat_reply_swipes rename constraint chat_reply_alternatives_entry_position to chat_reply_swipes_entry_position`.execute(
          db,
        );
      }
    },
  },
};
