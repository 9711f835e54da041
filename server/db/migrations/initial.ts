// The first schema migration: plans, users, tokens, characters, groups and chat history.
import type { Kysely, Migration } from "kysely";

/** Plans, users and their sign-in tokens. */
async function createAccounts(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("plans")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("price_cents", "integer", (c) => c.notNull())
    .addColumn("description_html", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("image", "text", (c) => c.notNull())
    .addColumn("character_limit", "integer", (c) => c.notNull())
    .addColumn("voice_limit", "integer", (c) => c.notNull())
    .addColumn("photo_upload", "integer", (c) => c.notNull())
    .addColumn("image_generation", "integer", (c) => c.notNull())
    .addColumn("daily_message_limit", "integer", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text")
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("user_name", "text", (c) => c.notNull())
    .addColumn("picture", "text", (c) => c.notNull())
    .addColumn("plan_id", "text", (c) => c.notNull().references("plans.id"))
    .addColumn("character_limit", "integer", (c) => c.notNull())
    .addColumn("voice_limit", "integer", (c) => c.notNull())
    .addColumn("photo_upload", "integer", (c) => c.notNull())
    .addColumn("image_generation", "integer", (c) => c.notNull())
    .addColumn("chat_limit", "integer", (c) => c.notNull())
    .addColumn("chat_count", "integer", (c) => c.notNull())
    .addColumn("chat_count_day", "text", (c) => c.notNull())
    .addColumn("is_demo", "integer", (c) => c.notNull())
    .addColumn("expires_at", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("users_demo_expiry").on("users").columns(["is_demo", "expires_at"]).execute();
  await db.schema
    .createTable("auth_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("auth_tokens_user").on("auth_tokens").column("user_id").execute();
}

/** Languages, voices, the preset characters and the users' characters. */
async function createCharacters(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("languages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("sort_order", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("voices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("sex", "text", (c) => c.notNull())
    .addColumn("language_code", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("provider_voice", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("preset_characters")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("sex", "text", (c) => c.notNull())
    .addColumn("voice", "text", (c) => c.notNull())
    .addColumn("language_id", "text", (c) => c.notNull().references("languages.id"))
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("greeting", "text", (c) => c.notNull())
    .addColumn("appearance", "text", (c) => c.notNull())
    .addColumn("photo", "text", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("characters")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("preset_id", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("sex", "text", (c) => c.notNull())
    .addColumn("voice", "text", (c) => c.notNull())
    .addColumn("language_id", "text", (c) => c.notNull().references("languages.id"))
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("greeting", "text", (c) => c.notNull())
    .addColumn("appearance", "text", (c) => c.notNull())
    .addColumn("photo", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("characters_user")
    .on("characters")
    .columns(["user_id", "created_at"])
    .execute();
}

/** Groups, chat sessions, chat history and the contact form's messages. */
async function createChats(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("chat_groups")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("chat_groups_user").on("chat_groups").column("user_id").execute();
  await db.schema
    .createTable("chat_group_members")
    .addColumn("group_id", "text", (c) => c.notNull().references("chat_groups.id").onDelete("cascade"))
    .addColumn("character_id", "text", (c) => c.notNull().references("characters.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("chat_group_members_pk", ["group_id", "character_id"])
    .execute();
  await db.schema
    .createTable("chat_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("chat_key", "text", (c) => c.notNull())
    .addColumn("is_group", "integer", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("greeted", "integer", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("chat_sessions_user_key", ["user_id", "chat_key"])
    .execute();
  await db.schema
    .createTable("chat_history")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("session_id", "text", (c) => c.notNull().references("chat_sessions.id").onDelete("cascade"))
    .addColumn("character_id", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("message_image", "text", (c) => c.notNull())
    .addColumn("send_time", "bigint", (c) => c.notNull())
    .addColumn("reply_message", "text", (c) => c.notNull())
    .addColumn("reply_image", "text", (c) => c.notNull())
    .addColumn("reply_audio_url", "text", (c) => c.notNull())
    .addColumn("reply_time", "bigint")
    .addColumn("image_loading", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", "text", (c) => c.notNull())
    .addColumn("seq", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("chat_history_session_seq")
    .on("chat_history")
    .columns(["session_id", "seq"])
    .execute();
  await db.schema
    .createTable("contact_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
}

/** The first schema: plans, users, tokens, characters, groups, chat history. */
export const initialMigrations: Record<string, Migration> = {
  "0001_initial": {
    async up(db: Kysely<unknown>) {
      await createAccounts(db);
      await createCharacters(db);
      await createChats(db);
    },
  },
};
