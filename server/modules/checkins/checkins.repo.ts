// Database access of check-ins: each user's opt-in per character, the chats that are due, and writing a check-in entry.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../../db/index";
import type { ChatHistoryRow } from "../../db/schema";

/** Rolls back a check-in another run stored first. */
class AlreadyStored extends Error {}

/** Rolls back a check-in whose user opted out or was blocked while the model wrote it. */
class NoLongerWanted extends Error {}

/** A user's check-in setting of one character, as the API shows it. */
export interface CheckinSetting {
  enabled: boolean;
  timeZone: string;
  unread: number;
}

/** A chat whose quiet period is over (what the job needs to write the check-in). */
export interface DueChat {
  userId: string;
  characterId: string;
  timeZone: string;
  sessionId: string;
  summary: string;
  /** Epoch ms of the chat's last message (its send or reply time): the quiet period's start. */
  lastAt: number;
  userName: string;
  fullName: string;
  uncensored: number;
  characterName: string;
  sex: string;
  description: string;
  appearance: string;
  greeting: string;
  language: string;
}

/**
 * Database access of check-ins: `checkin_settings` (the opt-in per user and
 * character) and `checkins` (one row per check-in sent). Check-in entries themselves are
 * `chat_history` rows with an empty user message, inserted here in the same transaction as
 * their `checkins` row.
 */
export class CheckinsRepo {
  constructor(private readonly db: Db) {}

  /** The setting of (user, character), if the user ever chose one. */
  async setting(userId: string, characterId: string): Promise<CheckinSetting | undefined> {
    const row = await this.db
      .selectFrom("checkin_settings")
      .select(["enabled", "time_zone", "unread"])
      .where("user_id", "=", userId)
      .where("character_id", "=", characterId)
      .executeTakeFirst();
    return row && { enabled: row.enabled === 1, timeZone: row.time_zone, unread: Number(row.unread) };
  }

  /** Stores the opt-in (or opt-out) of (user, character); the job looks at the chat again at once. */
  async save(
    userId: string,
    characterId: string,
    enabled: boolean,
    timeZone: string,
    now: number,
  ): Promise<void> {
    await this.db
      .insertInto("checkin_settings")
      .values({
        user_id: userId,
        character_id: characterId,
        enabled: enabled ? 1 : 0,
        time_zone: timeZone,
        next_check_at: 0,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(["user_id", "character_id"]).doUpdateSet({
          enabled: enabled ? 1 : 0,
          time_zone: timeZone,
          next_check_at: 0,
          updated_at: now,
        }),
      )
      .execute();
  }

  /** The user's characters with unread check-ins: character id → count. */
  async unreadOf(userId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom("checkin_settings")
      .select(["character_id", "unread"])
      .where("user_id", "=", userId)
      .where("unread", ">", 0)
      .execute();
    return new Map(rows.map((r) => [r.character_id, Number(r.unread)]));
  }

  /** Clears the unread count of (user, character): the chat was opened. */
  async markRead(userId: string, characterId: string): Promise<void> {
    await this.db
      .updateTable("checkin_settings")
      .set({ unread: 0 })
      .where("user_id", "=", userId)
      .where("character_id", "=", characterId)
      .where("unread", ">", 0)
      .execute();
  }

  /** Puts off a chat until `at` (epoch ms): outside the user's waking hours. */
  async postpone(userId: string, characterId: string, at: number): Promise<void> {
    await this.db
      .updateTable("checkin_settings")
      .set({ next_check_at: at })
      .where("user_id", "=", userId)
      .where("character_id", "=", characterId)
      .execute();
  }

  /**
   * The one-to-one chats due for a check-in at `now`, in one bounded query: opted in, of a user
   * who is not blocked, not put off past `now`, with a history whose last message is at or
   * before `cutoff` (epoch ms), and no unanswered check-in (a check-in entry with no later entry
   * in its chat). At most `limit`, the longest quiet first.
   */
  async due(now: number, cutoff: number, limit: number): Promise<DueChat[]> {
    const lastAt = sql<number>`(select max(coalesce(h.reply_time, h.send_time)) from chat_history h where h.session_id = cs.id)`;
    const rows = await this.db
      .selectFrom("checkin_settings as s")
      .innerJoin("chat_sessions as cs", (join) =>
        join.onRef("cs.user_id", "=", "s.user_id").onRef("cs.chat_key", "=", "s.character_id"),
      )
      .innerJoin("users as u", "u.id", "s.user_id")
      .innerJoin("characters as c", "c.id", "s.character_id")
      .leftJoin("languages as l", "l.id", "c.language_id")
      .select([
        "s.user_id as userId",
        "s.character_id as characterId",
        "s.time_zone as timeZone",
        "cs.id as sessionId",
        "cs.summary as summary",
        "u.user_name as userName",
        "u.full_name as fullName",
        "u.uncensored as uncensored",
        "c.name as characterName",
        "c.sex as sex",
        "c.description as description",
        "c.appearance as appearance",
        "c.greeting as greeting",
        "l.name as language",
      ])
      .select(lastAt.as("lastAt"))
      .where("s.enabled", "=", 1)
      .where("u.blocked", "=", 0)
      .where("s.next_check_at", "<=", now)
      .where("cs.is_group", "=", 0)
      .where(lastAt, "<=", cutoff)
      .where(
        sql<boolean>`not exists (select 1 from checkins k where k.session_id = cs.id
          and exists (select 1 from chat_history e where e.id = k.entry_id)
          and not exists (select 1 from chat_history a where a.session_id = cs.id and a.seq > k.entry_seq))`,
      )
      .orderBy(lastAt)
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      ...r,
      lastAt: Number(r.lastAt),
      uncensored: Number(r.uncensored),
      language: r.language ?? "English",
    }));
  }

  /**
   * Stores a check-in: its history entry and its `checkins` row, once per chat and quiet period
   * (`quietSince`), and counts it unread. Nothing is stored when the user opted out of the
   * character's check-ins or was blocked since the due query (the model call takes a while).
   * @returns false when another run stored it first, or the check-in is no longer wanted.
   */
  async storeOnce(
    entry: ChatHistoryRow,
    input: { userId: string; characterId: string; quietSince: number; now: number },
  ): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        const wanted = await trx
          .selectFrom("checkin_settings as s")
          .innerJoin("users as u", "u.id", "s.user_id")
          .select("s.user_id")
          .where("s.user_id", "=", input.userId)
          .where("s.character_id", "=", input.characterId)
          .where("s.enabled", "=", 1)
          .where("u.blocked", "=", 0)
          .executeTakeFirst();
        if (!wanted) throw new NoLongerWanted();
        // The entry first (the check-in row refers to it); both commit together or neither.
        await trx.insertInto("chat_history").values(entry).execute();
        const claimed = await trx
          .insertInto("checkins")
          .values({
            id: randomUUID(),
            session_id: entry.session_id,
            entry_id: entry.id,
            entry_seq: entry.seq,
            quiet_since: input.quietSince,
            created_at: input.now,
          })
          .onConflict((oc) => oc.columns(["session_id", "quiet_since"]).doNothing())
          .executeTakeFirst();
        if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) throw new AlreadyStored();
        await trx
          .updateTable("checkin_settings")
          .set((eb) => ({ unread: eb("unread", "+", 1) }))
          .where("user_id", "=", input.userId)
          .where("character_id", "=", input.characterId)
          .execute();
      });
      return true;
    } catch (error) {
      if (error instanceof AlreadyStored || error instanceof NoLongerWanted) return false;
      throw error;
    }
  }
}
