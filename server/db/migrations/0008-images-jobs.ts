// The 0008_images_jobs migration: the durable image jobs (image_jobs).
import type { Kysely, Migration } from "kysely";

/**
 * Durable image jobs. A job is queued with everything it needs (prompt, size, seed),
 * claimed by a worker, and resumed at start when the process ended while it ran.
 */
export const imageJobMigrations: Record<string, Migration> = {
  "0008_images_jobs": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("image_jobs")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("entry_id", "text", (c) => c.notNull())
        .addColumn("chat_key", "text", (c) => c.notNull())
        .addColumn("prompt", "text", (c) => c.notNull())
        .addColumn("negative_prompt", "text", (c) => c.notNull())
        .addColumn("width", "integer", (c) => c.notNull())
        .addColumn("height", "integer", (c) => c.notNull())
        .addColumn("seed", "bigint", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("quota_bucket", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("error", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("started_at", "bigint")
        .addColumn("finished_at", "bigint")
        .execute();
      await db.schema
        .createIndex("image_jobs_status")
        .on("image_jobs")
        .columns(["status", "created_at"])
        .execute();
      await db.schema.createIndex("image_jobs_entry").on("image_jobs").column("entry_id").execute();
    },
  },
};
