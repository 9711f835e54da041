// The schema changes of self-hosted accounts: set-up tokens, invitations and sign-up codes.
import type { Kysely, Migration } from "kysely";

/** Migrations of self-hosted accounts (see server/db/schema-accounts.ts for the tables). */
export const accountsMigrations: Record<string, Migration> = {
  "0030_self_hosted_accounts": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("setup_tokens")
        .addColumn("token_hash", "text", (c) => c.primaryKey())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("invitations")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("created_by", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("used_at", "bigint")
        .addColumn("used_by", "text")
        .addColumn("revoked_at", "bigint")
        .execute();
      await db.schema
        .createTable("signup_codes")
        .addColumn("email", "text", (c) => c.primaryKey())
        .addColumn("code_hash", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("tries", "integer", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
    },
  },
};
