// The 0002_accounts migration: password resets, device logins, OAuth sign-in and free subscriptions.
import type { Kysely, Migration } from "kysely";

/**
 * Accounts beyond the first schema: `password_resets` (a reset code's hash, used once before it
 * expires), `devices` (a device's login secret, hashed), `oauth_states` and `oauth_identities`
 * (an OAuth sign-in's state and PKCE verifier, and the provider's subject tied to a user) and
 * `free_subscriptions` (a code mailed to a person and commented on the video, checked by a job).
 */
export const signInMigrations: Record<string, Migration> = {
  "0002_accounts": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("password_resets")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("code_hash", "text", (c) => c.notNull().unique())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("used_at", "bigint")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("devices")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("secret_hash", "text", (c) => c.notNull().unique())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("last_used_at", "bigint")
        .execute();
      await db.schema
        .createTable("oauth_states")
        .addColumn("state_hash", "text", (c) => c.primaryKey())
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("code_verifier", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("oauth_identities")
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("oauth_identities_pk", ["provider", "subject"])
        .execute();
      await db.schema
        .createTable("free_subscriptions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("code", "text", (c) => c.notNull().unique())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("next_check_at", "bigint", (c) => c.notNull())
        .addColumn("locked_until", "bigint", (c) => c.notNull())
        .addColumn("checks", "integer", (c) => c.notNull())
        .addColumn("last_error", "text", (c) => c.notNull())
        .addColumn("user_id", "text")
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("free_subscriptions_due")
        .on("free_subscriptions")
        .columns(["status", "next_check_at"])
        .execute();
      await db.schema
        .createIndex("free_subscriptions_email")
        .on("free_subscriptions")
        .column("email")
        .execute();
    },
  },
};
