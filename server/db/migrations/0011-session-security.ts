// The 0011_session_security migration: OAuth states bound to their browser, sessions tied to the device that logged in.
import type { Kysely, Migration } from "kysely";

/**
 * An OAuth state is bound to the browser that started the flow (sha256 of the
 * value of its HttpOnly cookie), and a session started by device login names its device,
 * so revoking the device ends that session too.
 */
export const sessionSecurityMigrations: Record<string, Migration> = {
  "0011_session_security": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("oauth_states")
        .addColumn("binding_hash", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema.alterTable("auth_tokens").addColumn("device_id", "text").execute();
      await db.schema.createIndex("auth_tokens_device").on("auth_tokens").column("device_id").execute();
    },
  },
};
