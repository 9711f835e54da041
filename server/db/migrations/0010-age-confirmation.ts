// The 0010_age_confirmation migration: when a user confirmed being 18 or over.
import type { Kysely, Migration } from "kysely";

/**
 * `users.adult_confirmed_at`: an 18+ confirmation is stored for every account before it can chat.
 */
export const ageConfirmationMigrations: Record<string, Migration> = {
  "0010_age_confirmation": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("users").addColumn("adult_confirmed_at", "bigint").execute();
    },
  },
};
