// The 0012_quota_accounting migration: how many times a reply has been continued.
import type { Kysely, Migration } from "kysely";

/**
 * `chat_history.continue_count`: every model run is accounted; one reply can be continued a
 * bounded number of times.
 */
export const quotaAccountingMigrations: Record<string, Migration> = {
  "0012_quota_accounting": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("chat_history")
        .addColumn("continue_count", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
};
