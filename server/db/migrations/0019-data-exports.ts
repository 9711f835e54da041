// The 0019_data_exports migration: the exports of a user's data (data_exports).
import type { Kysely, Migration } from "kysely";

/**
 * Take my data: one export of a user's data, built by a background job; its ZIP
 * lives in the content area under file_key until expires_at (24 h after it is ready).
 */
export const dataExportMigrations: Record<string, Migration> = {
  "0019_data_exports": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("data_exports")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("file_key", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("size_bytes", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("error", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("ready_at", "bigint")
        .addColumn("expires_at", "bigint")
        .execute();
      await db.schema.createIndex("data_exports_user").on("data_exports").column("user_id").execute();
    },
  },
};
