// The chats of a user as stored: their characters and groups, chat sessions, and the languages characters reply in.
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index";
import { firstRow, preparedQuery } from "../../db/prepared";
import type { Character, ChatSession } from "../../db/schema";
import { charactersOfUser, findOwnedCharacter } from "./character-queries";

/**
 * Database access of the chats: the user's characters and groups as chats, and their chat
 * sessions. The only code that reads or writes `chat_sessions` rows one at a time (the history
 * repo writes a session's last-use time with an entry, through `touchSession` below).
 */
export class ChatsRepo {
  private readonly languageNames = new Map<string, string>();
  constructor(private readonly db: Db) {}

  /** A character only when it belongs to `userId`. */
  findOwnedCharacter(userId: string, id: string): Promise<Character | undefined> {
    return findOwnedCharacter(this.db, userId, id);
  }

  /** The user's oldest character (the chat opened when none is named), if any. */
  firstCharacter(userId: string): Promise<Character | undefined> {
    return charactersOfUser(this.db, userId).limit(1).executeTakeFirst();
  }

  /** The group with its members (in position order) when it belongs to the user. */
  async findOwnedGroup(
    userId: string,
    groupId: string,
  ): Promise<{ id: string; members: Character[]; joinedAt: Map<string, number> } | undefined> {
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
      .select("chat_group_members.joined_at as member_joined_at")
      .where("chat_group_members.group_id", "=", groupId)
      .orderBy("chat_group_members.position")
      .execute();
    const joinedAt = new Map(members.map((m) => [m.id, Number(m.member_joined_at)]));
    return {
      id: group.id,
      members: members.map(({ member_joined_at: _, ...character }) => character),
      joinedAt,
    };
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
        id: randomUUID(),
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
    return firstRow(sessionOf(this.db, { userId, chatKey }));
  }

  sessionById(sessionId: string): Promise<ChatSession | undefined> {
    return this.db.selectFrom("chat_sessions").selectAll().where("id", "=", sessionId).executeTakeFirst();
  }

  /** Records the session's last-use time (epoch ms). */
  async touchSession(sessionId: string, now: number): Promise<void> {
    await touchSession(this.db, { sessionId, now });
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
}

// The queries of every chat message, built and compiled once (server/db/prepared.ts).
const sessionOf = preparedQuery((db, p: { userId: string; chatKey: string }) =>
  db
    .selectFrom("chat_sessions")
    .selectAll()
    .where("user_id", "=", p.userId)
    .where("chat_key", "=", p.chatKey),
);
/** Sets a session's last-use time (also inside the history's entry transaction). */
export const touchSession = preparedQuery((db, p: { sessionId: string; now: number }) =>
  db.updateTable("chat_sessions").set({ updated_at: p.now }).where("id", "=", p.sessionId),
);
