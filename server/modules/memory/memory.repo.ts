import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index";

/** Database access of memory (issue 5): facts about the user per character, and chat summaries. */
export class MemoryRepo {
  constructor(private readonly db: Db) {}

  /** The newest `limit` facts a character remembers about the user, newest first. */
  listFacts(userId: string, characterId: string, limit?: number) {
    let query = this.db
      .selectFrom("memories")
      .select(["id", "fact", "created_at"])
      .where("user_id", "=", userId)
      .where("character_id", "=", characterId)
      .orderBy("created_at", "desc");
    if (limit !== undefined) query = query.limit(limit);
    return query.execute();
  }

  async insertFact(userId: string, characterId: string, fact: string, now: number): Promise<void> {
    await this.db
      .insertInto("memories")
      .values({ id: randomUUID(), user_id: userId, character_id: characterId, fact, created_at: now })
      .execute();
  }

  /** Deletes one of the user's facts. @returns false when it is not the user's. */
  async deleteOwnedFact(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("memories")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteFacts(ids: string[]): Promise<void> {
    if (ids.length) await this.db.deleteFrom("memories").where("id", "in", ids).execute();
  }

  /** A session's summary and the newest entry it covers. */
  summaryOf(sessionId: string) {
    return this.db
      .selectFrom("chat_sessions")
      .select(["summary", "summary_until_seq"])
      .where("id", "=", sessionId)
      .executeTakeFirst();
  }

  /** The exchanges of a session the summary does not cover, oldest first, with their character's name. */
  exchangesAfter(sessionId: string, afterSeq: number) {
    return this.db
      .selectFrom("chat_history")
      .leftJoin("characters", "characters.id", "chat_history.character_id")
      .select([
        "chat_history.message",
        "chat_history.reply_message",
        "chat_history.seq",
        "characters.name as character_name",
      ])
      .where("chat_history.session_id", "=", sessionId)
      .where("chat_history.seq", ">", afterSeq)
      .orderBy("chat_history.seq")
      .execute();
  }

  /** The user's words in one of their history entries; undefined when it is not theirs or gone. */
  async entryMessage(entryId: string, userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("chat_history")
      .innerJoin("chat_sessions", "chat_sessions.id", "chat_history.session_id")
      .select("chat_history.message")
      .where("chat_history.id", "=", entryId)
      .where("chat_sessions.user_id", "=", userId)
      .executeTakeFirst();
    return row?.message;
  }

  /** Writes a summary unless another refresh moved it past `fromSeq` meanwhile. */
  async saveSummary(sessionId: string, summary: string, fromSeq: number, untilSeq: number): Promise<void> {
    await this.db
      .updateTable("chat_sessions")
      .set({ summary, summary_until_seq: untilSeq })
      .where("id", "=", sessionId)
      .where("summary_until_seq", "=", fromSeq)
      .execute();
  }
}
