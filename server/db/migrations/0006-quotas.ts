// The 0006_quotas migration: message limits per day or per month, add-on messages and the uncensored flag.
import { type Kysely, type Migration, sql } from "kysely";

/**
 * A plan's message limit is per day (Free) or per calendar month (paid plans), UTC: the plans'
 * and the users' day counts become limits and counts per period, both get the `uncensored` flag,
 * and the paid plans get their monthly limits.
 */
export const quotaMigrations: Record<string, Migration> = {
  "0006_quotas": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("plans").renameColumn("daily_message_limit", "message_limit").execute();
      await db.schema
        .alterTable("plans")
        .addColumn("quota_period", "text", (c) => c.notNull().defaultTo("day"))
        .execute();
      await db.schema
        .alterTable("plans")
        .addColumn("uncensored", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable("users").renameColumn("chat_count_day", "chat_period").execute();
      await db.schema
        .alterTable("users")
        .addColumn("quota_period", "text", (c) => c.notNull().defaultTo("day"))
        .execute();
      // Add-on messages bought when the limit is reached (product.md §9: 100 for $1.99); used after the plan's.
      await db.schema
        .alterTable("users")
        .addColumn("extra_messages", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("users")
        .addColumn("uncensored", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      for (const [name, limit, uncensored] of [
        ["Basic Plan", 1000, 0],
        ["Premium", 3000, 0],
        ["Premium Plus", 6000, 1],
      ] as const) {
        await sql`update plans set quota_period = 'month', message_limit = ${limit}, uncensored = ${uncensored} where name = ${name}`.execute(
          db,
        );
      }
    },
  },
};
