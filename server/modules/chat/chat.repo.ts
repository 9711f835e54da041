// The chat engine's database access beyond the entries: who spoke last, continuations of a reply, group membership.
import type { Db } from "../../db/index";
import type { InspectionsRepo } from "./inspections.repo";

/**
 * Database access of the chat engine beyond the conversation's entries: who spoke last, the
 * bound on continuations of one reply, and group membership.
 */
export class ChatRepo {
  constructor(
    private readonly db: Db,
    /** What each reply's prompt was made of (the prompt inspector). */
    readonly inspections: InspectionsRepo,
  ) {}

  /** The character who wrote the newest reply in the user's chat `chatKey`, if any. */
  async lastReplyCharacterId(chatKey: string, userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("chat_history")
      .innerJoin("chat_sessions", "chat_sessions.id", "chat_history.session_id")
      .select("chat_history.character_id")
      .where("chat_sessions.user_id", "=", userId)
      .where("chat_sessions.chat_key", "=", chatKey)
      .where("chat_history.reply_message", "<>", "")
      .orderBy("chat_history.seq", "desc")
      .limit(1)
      .executeTakeFirst();
    return row?.character_id;
  }

  /**
   * Counts one continuation of an entry's reply unless it was continued `max` times already
   *, atomically: concurrent continuations never go past `max`.
   * @returns false when the reply cannot be continued any more.
   */
  async claimContinuation(entryId: string, max: number): Promise<boolean> {
    const result = await this.db
      .updateTable("chat_history")
      .set((eb) => ({ continue_count: eb("continue_count", "+", 1) }))
      .where("id", "=", entryId)
      .where("continue_count", "<", max)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives back a continuation that added nothing to the reply. */
  async releaseContinuation(entryId: string): Promise<void> {
    await this.db
      .updateTable("chat_history")
      .set((eb) => ({ continue_count: eb("continue_count", "-", 1) }))
      .where("id", "=", entryId)
      .where("continue_count", ">", 0)
      .execute();
  }

  /**
   * Entries still pending whose message was sent before `sentBefore` (epoch ms), oldest first,
   * with what settling them needs: the user's quota period and names, the character's name.
   * @param limit most rows (the settlement runs again for the rest).
   */
  pendingBefore(sentBefore: number, limit: number) {
    return this.db
      .selectFrom("chat_history")
      .innerJoin("chat_sessions", "chat_sessions.id", "chat_history.session_id")
      .innerJoin("users", "users.id", "chat_sessions.user_id")
      .leftJoin("characters", "characters.id", "chat_history.character_id")
      .leftJoin("instance_leases", "instance_leases.id", "chat_history.owner")
      .select([
        "chat_history.id",
        "chat_history.owner",
        "instance_leases.expires_at as owner_lease_expires_at",
        "chat_history.message",
        "chat_history.message_image",
        "chat_history.send_time",
        "chat_sessions.user_id",
        "users.quota_period",
        "users.full_name",
        "users.user_name",
        "characters.name as character_name",
      ])
      .where("chat_history.status", "=", "pending")
      .where("chat_history.send_time", "<", sentBefore)
      .orderBy("chat_history.send_time")
      .limit(limit)
      .execute();
  }

  /**
   * Settles an entry that is still pending (its generation died), atomically: an entry
   * answered meanwhile is left as it is. @returns false when it was no longer pending.
   */
  async settlePending(
    entryId: string,
    patch: { status: "partial" | "failed"; reply_message?: string; reply_time?: number; error: string },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable("chat_history")
      .set(patch)
      .where("id", "=", entryId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Creates a group of the user with one first member. */
  async createGroup(userId: string, groupId: string, characterId: string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto("chat_groups").values({ id: groupId, user_id: userId, created_at: now }).execute();
      await trx
        .insertInto("chat_group_members")
        .values({ group_id: groupId, character_id: characterId, position: 0, joined_at: now })
        .execute();
    });
  }

  /**
   * Adds a member unless the group already has `max` members or holds the character, checked
   * in the same transaction (the group row is locked first on PostgreSQL).
   * @returns "added", "full" or "already".
   */
  async addMember(
    groupId: string,
    characterId: string,
    max: number,
    now: number = Date.now(),
  ): Promise<"added" | "full" | "already"> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("chat_groups")
        .set((eb) => ({ created_at: eb.ref("created_at") }))
        .where("id", "=", groupId)
        .execute();
      const members = await trx
        .selectFrom("chat_group_members")
        .select(["character_id", "position"])
        .where("group_id", "=", groupId)
        .execute();
      if (members.some((m) => m.character_id === characterId)) return "already";
      if (members.length >= max) return "full";
      const position = Math.max(-1, ...members.map((m) => m.position)) + 1;
      await trx
        .insertInto("chat_group_members")
        .values({ group_id: groupId, character_id: characterId, position, joined_at: now })
        .execute();
      return "added";
    });
  }

  /** @returns false when the character was not a member. */
  async removeMember(groupId: string, characterId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("chat_group_members")
      .where("group_id", "=", groupId)
      .where("character_id", "=", characterId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
