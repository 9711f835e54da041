// The 0018_swipes_and_edits migration: a reply's alternatives (swipes), a card's alternate greetings, the messages a fact was drawn from.
import type { Kysely, Migration } from "kysely";

/**
 * Swipes / regenerate: every reply an entry has had, in the order written (a
 * card's alternate greetings are alternatives of the greeting); the entry's reply_message is
 * the chosen one (chat_history.alternative_index).
 */
export const swipesAndEditsMigrations: Record<string, Migration> = {
  "0018_swipes_and_edits": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("chat_reply_alternatives")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("entry_id", "text", (c) => c.notNull().references("chat_history.id").onDelete("cascade"))
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("reply_message", "text", (c) => c.notNull())
        .addColumn("reply_audio_url", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("chat_reply_alternatives_entry_position", ["entry_id", "position"])
        .execute();
      await db.schema
        .alterTable("chat_history")
        .addColumn("alternative_index", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      // A card's alternate greetings (Character Card V2/V3 `alternate_greetings`), JSON array.
      await db.schema
        .alterTable("characters")
        .addColumn("alternate_greetings", "text", (c) => c.notNull().defaultTo("[]"))
        .execute();
      // "Edit, delete and rewind": a fact remembers the chat and the newest message it was drawn
      // from, so facts drawn from removed or edited messages can be dropped and drawn again.
      await db.schema
        .alterTable("memories")
        .addColumn("session_id", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema
        .alterTable("memories")
        .addColumn("source_seq", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
};
