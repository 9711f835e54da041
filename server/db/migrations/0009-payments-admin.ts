// The 0009_payments_admin migration: Stripe plans and subscriptions, roles and blocks, the webhook event log and the admin audit log.
import type { Kysely, Migration } from "kysely";

/**
 * Plans sold through Stripe (a recurring price id), the user's role, block flag and
 * subscription, the webhook event log (idempotency) and the audit log of admin actions.
 */
export const paymentsAdminMigrations: Record<string, Migration> = {
  "0009_payments_admin": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("plans")
        .addColumn("stripe_price_id", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      for (const [column, type, fallback] of [
        ["role", "text", "user"],
        ["blocked", "integer", 0],
        ["stripe_customer_id", "text", ""],
        ["stripe_subscription_id", "text", ""],
      ] as const) {
        await db.schema
          .alterTable("users")
          .addColumn(column, type, (c) => c.notNull().defaultTo(fallback))
          .execute();
      }
      // A cancelled subscription keeps its plan until this time (epoch ms), then the user is on Free.
      await db.schema.alterTable("users").addColumn("plan_ends_at", "bigint").execute();
      await db.schema
        .createIndex("users_stripe_subscription")
        .on("users")
        .column("stripe_subscription_id")
        .execute();
      await db.schema
        .createTable("payment_events")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("user_id", "text")
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("admin_audit")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("admin_id", "text", (c) => c.notNull())
        .addColumn("admin_email", "text", (c) => c.notNull())
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("target", "text", (c) => c.notNull())
        .addColumn("details", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("admin_audit_time").on("admin_audit").column("created_at").execute();
    },
  },
};
