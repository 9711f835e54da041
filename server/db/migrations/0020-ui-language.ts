// The 0020_ui_language migration: the language the user chose for the app's screens.
import type { Kysely, Migration } from "kysely";

/**
 * UI translations: the language the user chose for the app's screens (a BCP 47
 * tag such as "es"); "" until they choose one (the browser's language is used).
 */
export const uiLanguageMigrations: Record<string, Migration> = {
  "0020_ui_language": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("users")
        .addColumn("ui_language", "text", (c) => c.notNull().defaultTo(""))
        .execute();
    },
  },
};
