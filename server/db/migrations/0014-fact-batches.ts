// The 0014_fact_batches migration: how far a chat's fact extraction has come.
import type { Kysely, Migration } from "kysely";

/**
 * Long-term facts are extracted from a chat's messages in batches, not one model
 * call per message; the session records how far the extraction has come.
 */
export const factBatchMigrations: Record<string, Migration> = {
  "0014_fact_batches": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("chat_sessions")
        .addColumn("facts_until_seq", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
};
