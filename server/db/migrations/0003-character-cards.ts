// The 0003_character_cards migration: the Character Card a character was imported from.
import type { Kysely, Migration } from "kysely";

/**
 * `characters.card`: the full Character Card (V2/V3 `data`) a character was imported from, as
 * JSON; '' if none.
 */
export const characterCardMigrations: Record<string, Migration> = {
  "0003_character_cards": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("characters")
        .addColumn("card", "text", (c) => c.notNull().defaultTo(""))
        .execute();
    },
  },
};
