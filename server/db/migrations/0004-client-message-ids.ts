// The 0004_client_message_ids migration: the client's id of each send, so a retried send stores one entry.
import { type Kysely, type Migration, sql } from "kysely";

/**
 * `chat_history.client_message_id`: the id the client gives each send, unique in its chat when
 * given, so a retried send never makes a second entry.
 */
export const clientMessageIdMigrations: Record<string, Migration> = {
  "0004_client_message_ids": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("chat_history")
        .addColumn("client_message_id", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema
        .createIndex("chat_history_client_message")
        .on("chat_history")
        .columns(["session_id", "client_message_id"])
        .unique()
        .where(sql.ref("client_message_id"), "<>", "")
        .execute();
    },
  },
};
