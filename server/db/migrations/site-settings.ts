// The site-wide settings an admin changes in the console without a restart (the guest demo on or off).
import type { Kysely, Migration } from "kysely";

/**
 * `site_settings`: one row per setting, its value as text (e.g. key "demo", value "1"). A row
 * is written when the server first starts with this migration (from the environment, e.g.
 * DEMO_LOGIN) and changed only by an admin afterwards.
 */
export const siteSettingsMigrations: Record<string, Migration> = {
  "0037_site_settings": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("site_settings")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
    },
  },
};
