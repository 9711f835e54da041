// The 0016_checkins migration: characters that write first (the user's opt-in per character, the check-ins sent).
import type { Kysely, Migration } from "kysely";

/**
 * Characters that write first: the user's opt-in per character (with the IANA
 * time zone their browser sent, for waking hours), the unread check-ins of the chat, and
 * when the job looks at the chat next (waking hours: the next 09:00 in their zone).
 */
export const checkinMigrations: Record<string, Migration> = {
  "0016_checkins": {
    async up(db: Kysely<unknown>) {
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
};
