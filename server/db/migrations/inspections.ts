// The schema of the prompt inspector: what each reply's prompt was made of, stored with the reply.
import type { Kysely, Migration } from "kysely";

/**
 * `prompt_inspections`: one row per reply version (a history entry and its swipe's
 * position, 0 for an entry without swipes), the inspection as bounded JSON text. The
 * foreign key cascades: a row goes with its entry (delete, rewind, New Chat, the chat's or the
 * character's deletion, account erasure).
 */
export const inspectionMigrations: Record<string, Migration> = {
  "0031_prompt_inspections": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("prompt_inspections")
        .addColumn("entry_id", "text", (c) => c.notNull().references("chat_history.id").onDelete("cascade"))
        .addColumn("swipe_index", "integer", (c) => c.notNull())
        .addColumn("inspection", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("prompt_inspections_pk", ["entry_id", "swipe_index"])
        .execute();
    },
  },
};
