// The 0013_pending_replies migration: a partial index of the replies still pending.
import { type Kysely, type Migration, sql } from "kysely";

/**
 * The settlement of replies left pending by a dead instance runs every few
 * seconds; a partial index keeps it to the few pending rows instead of the whole history.
 */
export const pendingReplyMigrations: Record<string, Migration> = {
  "0013_pending_replies": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex("chat_history_pending")
        .on("chat_history")
        .column("send_time")
        .where(sql.ref("status"), "=", "pending")
        .execute();
    },
  },
};
