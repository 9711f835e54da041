// Recall by meaning: the stored embedding of each side of a chat entry (message_vectors), dropped by the database when its text changes or its entry goes.
import { type Kysely, type Migration, sql } from "kysely";
import { isSqlite } from "./search";

/**
 * `message_vectors(entry_id, side, model, vector)`: one embedding per side of a history entry
 * (side 0 the user's message, 1 the reply shown), written in the background by the "memory.embed"
 * job only when an embedding model is configured (EMBEDDING_*), as unit-length float32 values,
 * little-endian (`vectorToBuffer`: 4 bytes a dimension; SQLite BLOB, PostgreSQL bytea), with the
 * embedder's id in `model` (vectors of another model are never compared).
 * - The foreign key cascades: a vector goes with its entry (delete, rewind, New Chat, the chat's
 *   or the character's deletion, account erasure).
 * - An AFTER UPDATE trigger on chat_history deletes a side's vector when that side's text changed
 *   (an edit, a swipe, a continued reply), so a vector is never that of words no longer there; the
 *   job embeds the new text later.
 */
export const recallVectorMigrations: Record<string, Migration> = {
  "0036_recall_vectors": {
    async up(db: Kysely<unknown>) {
      const sqlite = isSqlite(db);
      await db.schema
        .createTable("message_vectors")
        .addColumn("entry_id", "text", (c) => c.notNull().references("chat_history.id").onDelete("cascade"))
        .addColumn("side", "integer", (c) => c.notNull())
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("vector", sqlite ? "blob" : "bytea", (c) => c.notNull())
        .addPrimaryKeyConstraint("message_vectors_pk", ["entry_id", "side"])
        .execute();
      if (sqlite) {
        await sql`create trigger message_vectors_stale after update of message, reply_message on chat_history
          when old.message is not new.message or old.reply_message is not new.reply_message begin
          delete from message_vectors where entry_id = new.id
            and ((side = 0 and old.message is not new.message)
              or (side = 1 and old.reply_message is not new.reply_message));
        end`.execute(db);
        return;
      }
      await sql`create function message_vectors_stale() returns trigger language plpgsql as $$
        begin
          delete from message_vectors where entry_id = new.id
            and ((side = 0 and old.message is distinct from new.message)
              or (side = 1 and old.reply_message is distinct from new.reply_message));
          return null;
        end $$`.execute(db);
      await sql`create trigger message_vectors_stale after update of message, reply_message on chat_history
        for each row when (old.message is distinct from new.message or old.reply_message is distinct from new.reply_message)
        execute function message_vectors_stale()`.execute(db);
    },
  },
};
