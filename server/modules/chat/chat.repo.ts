import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index";
import type { Character, ChatHistoryRow, ChatSession } from "../../db/schema";

let lastSeq = 0;
/** Order key of a new history entry: epoch microseconds, strictly increasing in this process. */
export function nextSeq(now: number): number {
  lastSeq = Math.max(now * 1000, lastSeq + 1);
  return lastSeq;
}

/**
 * A new history entry of `sessionId`: the user's `message` to `characterId`, sent at `now` (epoch
 * ms), pending its reply. Not stored yet.
 */
export function newHistoryEntry(
  sessionId: string,
  characterId: string,
  message: string,
  now: number,
): ChatHistoryRow {
  return {
    id: randomUUID(),
    session_id: sessionId,
    character_id: characterId,
    message,
    message_image: "",
    send_time: now,
    reply_message: "",
    reply_image: "",
    reply_audio_url: "",
    reply_time: null,
    image_loading: 0,
    status: "pending",
    error: "",
    seq: nextSeq(now),
    client_message_id: "",
    continue_count: 0,
  };
}

/** Database access for chat sessions and chat history. */
export class ChatRepo {
  private readonly languageNames = new Map<string, string>();
  constructor(private readonly db: Db) {}

  /** The group with its members (in position order) when it belongs to the user. */
  async findOwnedGroup(
    userId: string,
    groupId: string,
  ): Promise<{ id: string; members: Character[] } | undefined> {
    const group = await this.db
      .selectFrom("chat_groups")
      .select("id")
      .where("id", "=", groupId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!group) return undefined;
    const members = await this.db
      .selectFrom("chat_group_members")
      .innerJoin("characters", "characters.id", "chat_group_members.character_id")
      .selectAll("characters")
      .where("chat_group_members.group_id", "=", groupId)
      .orderBy("chat_group_members.position")
      .execute();
    return { id: group.id, members };
  }

  /** The chat key the user talked in last, if any. */
  async latestChatKey(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("chat_sessions")
      .select("chat_key")
      .where("user_id", "=", userId)
      .orderBy("updated_at", "desc")
      .limit(1)
      .executeTakeFirst();
    return row?.chat_key;
  }

  /** The session of (user, chat key), created on first use. */
  async ensureSession(userId: string, chatKey: string, isGroup: boolean, now: number): Promise<ChatSession> {
    const existing = await this.findSession(userId, chatKey);
    if (existing) return existing;
    await this.db
      .insertInto("chat_sessions")
      .values({
        id: crypto.randomUUID(),
        user_id: userId,
        chat_key: chatKey,
        is_group: isGroup ? 1 : 0,
        summary: "",
        greeted: 0,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(["user_id", "chat_key"]).doNothing())
      .execute();
    const created = await this.findSession(userId, chatKey);
    if (!created) throw new Error(`chat session of ${chatKey} vanished after insert`);
    return created;
  }

  private findSession(userId: string, chatKey: string): Promise<ChatSession | undefined> {
    return this.db
      .selectFrom("chat_sessions")
      .selectAll()
      .where("user_id", "=", userId)
      .where("chat_key", "=", chatKey)
      .executeTakeFirst();
  }

  /**
   * The newest `limit` exchanges' texts after `afterSeq` (what the rolling summary does not
   * cover), oldest first: the prompt's history.
   */
  async recentTexts(
    sessionId: string,
    limit: number,
    afterSeq = 0,
  ): Promise<Array<{ message: string; reply_message: string; character_id: string }>> {
    const rows = await this.db
      .selectFrom("chat_history")
      .select(["message", "reply_message", "character_id"])
      .where("session_id", "=", sessionId)
      .where("seq", ">", afterSeq)
      .orderBy("seq", "desc")
      .limit(limit)
      .execute();
    return rows.reverse();
  }

  /**
   * Stores the greetings of a chat whose history is empty, once: the session's `greeted` flag is
   * flipped in the same transaction, so a concurrent caller waits on the row and then sees them.
   * @returns true when this call stored them.
   */
  async storeGreetingsOnce(sessionId: string, entries: ChatHistoryRow[]): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable("chat_sessions")
        .set({ greeted: 1 })
        .where("id", "=", sessionId)
        .where("greeted", "=", 0)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return false;
      const existing = await trx
        .selectFrom("chat_history")
        .select("id")
        .where("session_id", "=", sessionId)
        .limit(1)
        .executeTakeFirst();
      if (existing || entries.length === 0) return false;
      await trx.insertInto("chat_history").values(entries).execute();
      return true;
    });
  }

  /**
   * A page of history counted from the newest entry (spec 9: offset grows by the page size),
   * returned oldest first.
   */
  async page(sessionId: string, offset: number, limit: number): Promise<ChatHistoryRow[]> {
    const rows = await this.db
      .selectFrom("chat_history")
      .selectAll()
      .where("session_id", "=", sessionId)
      .orderBy("seq", "desc")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.reverse();
  }

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

  /** A history entry when it belongs to one of the user's chats. */
  findOwnedEntry(userId: string, entryId: string): Promise<ChatHistoryRow | undefined> {
    return this.db
      .selectFrom("chat_history")
      .innerJoin("chat_sessions", "chat_sessions.id", "chat_history.session_id")
      .selectAll("chat_history")
      .where("chat_history.id", "=", entryId)
      .where("chat_sessions.user_id", "=", userId)
      .executeTakeFirst();
  }

  sessionById(sessionId: string): Promise<ChatSession | undefined> {
    return this.db.selectFrom("chat_sessions").selectAll().where("id", "=", sessionId).executeTakeFirst();
  }

  /** The entry a client sent with this id in this session, if any. */
  findByClientMessageId(sessionId: string, clientMessageId: string): Promise<ChatHistoryRow | undefined> {
    return this.db
      .selectFrom("chat_history")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("client_message_id", "=", clientMessageId)
      .executeTakeFirst();
  }

  async insertEntry(entry: ChatHistoryRow): Promise<void> {
    await this.db.insertInto("chat_history").values(entry).execute();
  }

  async updateEntry(
    id: string,
    patch: Partial<
      Pick<ChatHistoryRow, "reply_message" | "reply_time" | "status" | "error" | "reply_audio_url">
    >,
  ): Promise<void> {
    await this.db.updateTable("chat_history").set(patch).where("id", "=", id).execute();
  }

  async touchSession(sessionId: string, now: number): Promise<void> {
    await this.db.updateTable("chat_sessions").set({ updated_at: now }).where("id", "=", sessionId).execute();
  }

  /** The language's display name (the reply language of the prompt), cached: languages are seed data. */
  async languageName(languageId: string): Promise<string> {
    const cached = this.languageNames.get(languageId);
    if (cached) return cached;
    const row = await this.db
      .selectFrom("languages")
      .select("name")
      .where("id", "=", languageId)
      .executeTakeFirst();
    const name = row?.name ?? "English";
    this.languageNames.set(languageId, name);
    return name;
  }

  /**
   * Counts one continuation of an entry's reply unless it was continued `max` times already
   * (issue 13), atomically: concurrent continuations never go past `max`.
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

  /** Creates a group of the user with one first member. */
  async createGroup(userId: string, groupId: string, characterId: string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto("chat_groups").values({ id: groupId, user_id: userId, created_at: now }).execute();
      await trx
        .insertInto("chat_group_members")
        .values({ group_id: groupId, character_id: characterId, position: 0 })
        .execute();
    });
  }

  /**
   * Adds a member unless the group already has `max` members or holds the character, checked
   * in the same transaction (the group row is locked first on PostgreSQL).
   * @returns "added", "full" or "already".
   */
  async addMember(groupId: string, characterId: string, max: number): Promise<"added" | "full" | "already"> {
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
        .values({ group_id: groupId, character_id: characterId, position })
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

  /** Deletes a session's history and its summary; the greeting comes again on the next load. */
  async clearSession(sessionId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("chat_history").where("session_id", "=", sessionId).execute();
      await trx
        .updateTable("chat_sessions")
        .set({ summary: "", summary_until_seq: 0, greeted: 0 })
        .where("id", "=", sessionId)
        .execute();
    });
  }
}
