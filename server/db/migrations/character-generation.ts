// The schema of a character's own generation settings (product.md §2 "Character form", Generation): reply length, temperature, author's note.
import type { Kysely, Migration } from "kysely";

/**
 * Columns on `characters`, each optional: `max_tokens` (the longest reply, tokens) and
 * `temperature` (null: the model connection's), `authors_note` ('' : none) and
 * `authors_note_depth` (messages from the end; null: the default depth).
 */
export const characterGenerationMigrations: Record<string, Migration> = {
  "0032_character_generation": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("characters").addColumn("max_tokens", "integer").execute();
      await db.schema.alterTable("characters").addColumn("temperature", "real").execute();
      await db.schema
        .alterTable("characters")
        .addColumn("authors_note", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema.alterTable("characters").addColumn("authors_note_depth", "integer").execute();
    },
  },
};
