// The 0015_lorebooks migration: a character's lorebook.
import type { Kysely, Migration } from "kysely";

/**
 * A character's lorebook (the Character Card V2/V3 `character_book`) as JSON; null
 * when it has none.
 */
export const lorebookMigrations: Record<string, Migration> = {
  "0015_lorebooks": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("characters").addColumn("lorebook", "text").execute();
    },
  },
};
