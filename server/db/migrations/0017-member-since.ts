// The 0017_member_since migration: when a character joined a group chat.
import type { Kysely, Migration } from "kysely";

/**
 * Scene-aware groups: when a character joined the group (epoch ms); a member
 * does not see what was said before it joined. Existing members: 0 (they see everything).
 */
export const memberSinceMigrations: Record<string, Migration> = {
  "0017_member_since": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("chat_group_members")
        .addColumn("joined_at", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
};
