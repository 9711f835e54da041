// The schema changes each feature added after the first schema (NNNN_feature migrations), in any order.
import { type Kysely, type Migration, sql } from "kysely";

/**
 * The schema changes of each feature after the first schema, named `NNNN_feature`. Features built
 * apart may have run in any order on a database (see `allowUnorderedMigrations` in migrations.ts).
 */
export const featureMigrations: Record<string, Migration> = {
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
  "0003_character_cards": {
    async up(db: Kysely<unknown>) {
      // The full Character Card (V2/V3 `data`) a character was imported from, as JSON; '' if none.
      await db.schema
        .alterTable("characters")
        .addColumn("card", "text", (c) => c.notNull().defaultTo(""))
        .execute();
    },
  },
  "0004_client_message_ids": {
    async up(db: Kysely<unknown>) {
      // The id the client gives each send, so a retried send never makes a second entry.
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
  "0005_memory": {
    async up(db: Kysely<unknown>) {
      // The rolling summary covers the history up to this entry order (seq); 0 = nothing yet.
      await db.schema
        .alterTable("chat_sessions")
        .addColumn("summary_until_seq", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable("memories")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("character_id", "text", (c) => c.notNull().references("characters.id").onDelete("cascade"))
        .addColumn("fact", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("memories_owner")
        .on("memories")
        .columns(["user_id", "character_id"])
        .execute();
    },
  },
  "0006_quotas": {
    async up(db: Kysely<unknown>) {
      // A plan's message limit is per day (Free) or per calendar month (paid plans), UTC.
      await db.schema.alterTable("plans").renameColumn("daily_message_limit", "message_limit").execute();
      await db.schema
        .alterTable("plans")
        .addColumn("quota_period", "text", (c) => c.notNull().defaultTo("day"))
        .execute();
      await db.schema
        .alterTable("plans")
        .addColumn("uncensored", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable("users").renameColumn("chat_count_day", "chat_period").execute();
      await db.schema
        .alterTable("users")
        .addColumn("quota_period", "text", (c) => c.notNull().defaultTo("day"))
        .execute();
      // Add-on messages bought when the limit is reached (product.md §9: 100 for $1.99); used after the plan's.
      await db.schema
        .alterTable("users")
        .addColumn("extra_messages", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("users")
        .addColumn("uncensored", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      for (const [name, limit, uncensored] of [
        ["Basic Plan", 1000, 0],
        ["Premium", 3000, 0],
        ["Premium Plus", 6000, 1],
      ] as const) {
        await sql`update plans set quota_period = 'month', message_limit = ${limit}, uncensored = ${uncensored} where name = ${name}`.execute(
          db,
        );
      }
    },
  },
  "0009_payments_admin": {
    async up(db: Kysely<unknown>) {
      // Plans sold through Stripe (a recurring price id), the user's role, block flag and
      // subscription, the webhook event log (idempotency) and the audit log of admin actions.
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
  "0008_images_jobs": {
    async up(db: Kysely<unknown>) {
      // Durable image jobs. A job is queued with everything it needs (prompt, size, seed),
      // claimed by a worker, and resumed at start when the process ended while it ran.
      await db.schema
        .createTable("image_jobs")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("entry_id", "text", (c) => c.notNull())
        .addColumn("chat_key", "text", (c) => c.notNull())
        .addColumn("prompt", "text", (c) => c.notNull())
        .addColumn("negative_prompt", "text", (c) => c.notNull())
        .addColumn("width", "integer", (c) => c.notNull())
        .addColumn("height", "integer", (c) => c.notNull())
        .addColumn("seed", "bigint", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("quota_bucket", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("error", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("started_at", "bigint")
        .addColumn("finished_at", "bigint")
        .execute();
      await db.schema
        .createIndex("image_jobs_status")
        .on("image_jobs")
        .columns(["status", "created_at"])
        .execute();
      await db.schema.createIndex("image_jobs_entry").on("image_jobs").column("entry_id").execute();
    },
  },
  "0010_age_confirmation": {
    async up(db: Kysely<unknown>) {
      // An 18+ confirmation is stored for every account before it can chat.
      await db.schema.alterTable("users").addColumn("adult_confirmed_at", "bigint").execute();
    },
  },
  "0011_session_security": {
    async up(db: Kysely<unknown>) {
      // An OAuth state is bound to the browser that started the flow (sha256 of the
      // value of its HttpOnly cookie), and a session started by device login names its device,
      // so revoking the device ends that session too.
      await db.schema
        .alterTable("oauth_states")
        .addColumn("binding_hash", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema.alterTable("auth_tokens").addColumn("device_id", "text").execute();
      await db.schema.createIndex("auth_tokens_device").on("auth_tokens").column("device_id").execute();
    },
  },
  "0012_quota_accounting": {
    async up(db: Kysely<unknown>) {
      // Every model run is accounted; one reply can be continued a bounded number of times.
      await db.schema
        .alterTable("chat_history")
        .addColumn("continue_count", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  "0013_pending_replies": {
    async up(db: Kysely<unknown>) {
      // The settlement of replies left pending by a dead instance runs every few
      // seconds; a partial index keeps it to the few pending rows instead of the whole history.
      await db.schema
        .createIndex("chat_history_pending")
        .on("chat_history")
        .column("send_time")
        .where(sql.ref("status"), "=", "pending")
        .execute();
    },
  },
  "0014_fact_batches": {
    async up(db: Kysely<unknown>) {
      // Long-term facts are extracted from a chat's messages in batches, not one model
      // call per message; the session records how far the extraction has come.
      await db.schema
        .alterTable("chat_sessions")
        .addColumn("facts_until_seq", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  "0015_lorebooks": {
    async up(db: Kysely<unknown>) {
      // A character's lorebook (the Character Card V2/V3 `character_book`) as JSON; null
      // when it has none.
      await db.schema.alterTable("characters").addColumn("lorebook", "text").execute();
    },
  },
  "0016_checkins": {
    async up(db: Kysely<unknown>) {
      // Characters that write first: the user's opt-in per character (with the IANA
      // time zone their browser sent, for waking hours), the unread check-ins of the chat, and
      // when the job looks at the chat next (waking hours: the next 09:00 in their zone).
      await db.schema
        .createTable("checkin_settings")
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("character_id", "text", (c) => c.notNull().references("characters.id").onDelete("cascade"))
        .addColumn("enabled", "integer", (c) => c.notNull())
        .addColumn("time_zone", "text", (c) => c.notNull())
        .addColumn("unread", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_check_at", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("checkin_settings_pk", ["user_id", "character_id"])
        .execute();
      await db.schema
        .createIndex("checkin_settings_due")
        .on("checkin_settings")
        .columns(["enabled", "next_check_at"])
        .execute();
      // One row per check-in sent: its history entry, and the quiet period it ended (the time
      // of the chat's last message before it); unique per chat and quiet period, so two
      // instances running the job store one check-in.
      await db.schema
        .createTable("checkins")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) =>
          c.notNull().references("chat_sessions.id").onDelete("cascade"),
        )
        .addColumn("entry_id", "text", (c) => c.notNull().references("chat_history.id").onDelete("cascade"))
        .addColumn("entry_seq", "bigint", (c) => c.notNull())
        .addColumn("quiet_since", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("checkins_session_quiet", ["session_id", "quiet_since"])
        .execute();
      await db.schema.createIndex("checkins_entry").on("checkins").column("entry_id").execute();
    },
  },
  "0017_member_since": {
    async up(db: Kysely<unknown>) {
      // Scene-aware groups: when a character joined the group (epoch ms); a member
      // does not see what was said before it joined. Existing members: 0 (they see everything).
      await db.schema
        .alterTable("chat_group_members")
        .addColumn("joined_at", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  "0018_swipes_and_edits": {
    async up(db: Kysely<unknown>) {
      // Swipes / regenerate: every reply an entry has had, in the order written (a
      // card's alternate greetings are alternatives of the greeting); the entry's reply_message is
      // the chosen one (chat_history.alternative_index).
      await db.schema
        .createTable("chat_reply_alternatives")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("entry_id", "text", (c) => c.notNull().references("chat_history.id").onDelete("cascade"))
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("reply_message", "text", (c) => c.notNull())
        .addColumn("reply_audio_url", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addUniqueConstraint("chat_reply_alternatives_entry_position", ["entry_id", "position"])
        .execute();
      await db.schema
        .alterTable("chat_history")
        .addColumn("alternative_index", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      // A card's alternate greetings (Character Card V2/V3 `alternate_greetings`), JSON array.
      await db.schema
        .alterTable("characters")
        .addColumn("alternate_greetings", "text", (c) => c.notNull().defaultTo("[]"))
        .execute();
      // "Edit, delete and rewind": a fact remembers the chat and the newest message it was drawn
      // from, so facts drawn from removed or edited messages can be dropped and drawn again.
      await db.schema
        .alterTable("memories")
        .addColumn("session_id", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema
        .alterTable("memories")
        .addColumn("source_seq", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  "0019_data_exports": {
    async up(db: Kysely<unknown>) {
      // Take my data: one export of a user's data, built by a background job; its ZIP
      // lives in the content area under file_key until expires_at (24 h after it is ready).
      await db.schema
        .createTable("data_exports")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("file_key", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("size_bytes", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("error", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("ready_at", "bigint")
        .addColumn("expires_at", "bigint")
        .execute();
      await db.schema.createIndex("data_exports_user").on("data_exports").column("user_id").execute();
    },
  },
  "0020_ui_language": {
    async up(db: Kysely<unknown>) {
      // UI translations: the language the user chose for the app's screens (a BCP 47
      // tag such as "es"); "" until they choose one (the browser's language is used).
      await db.schema
        .alterTable("users")
        .addColumn("ui_language", "text", (c) => c.notNull().defaultTo(""))
        .execute();
    },
  },
  "0021_reply_owner": {
    async up(db: Kysely<unknown>) {
      // Reply ownership: the server process that stored an entry, and each process's lease
      // (renewed every few seconds while it runs), so any process settles the pending entries of
      // one that stopped renewing, whether their generation had started or not.
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
