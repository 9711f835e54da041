// The 0005_memory migration: how far a chat's rolling summary has come, and the long-term facts (memories).
import type { Kysely, Migration } from "kysely";

/**
 * `chat_sessions.summary_until_seq`: the rolling summary covers the history up to this entry
 * order (seq); 0 = nothing yet. `memories`: the long-term facts of a user's chats with a character.
 */
export const memoryMigrations: Record<string, Migration> = {
  "0005_memory": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("chat_sessions")
        .addColumn("summary_until_seq", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable("memories")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("character_id", "text", (c) => c.notNull().references("characters.id").onDelete("cascade"))
        .addColumn("fact", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("memories_owner")
        .on("memories")
        .columns(["user_id", "character_id"])
        .execute();
    },
  },
};
