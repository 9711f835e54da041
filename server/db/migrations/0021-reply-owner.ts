// The 0021_reply_owner migration: the server process that stored each entry, and each process's lease.
import type { Kysely, Migration } from "kysely";

/**
 * Reply ownership: the server process that stored an entry, and each process's lease
 * (renewed every few seconds while it runs), so any process settles the pending entries of
 * one that stopped renewing, whether their generation had started or not.
 */
export const replyOwnerMigrations: Record<string, Migration> = {
  "0021_reply_owner": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("chat_history")
        .addColumn("owner", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema
        .createTable("instance_leases")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
    },
  },
};
