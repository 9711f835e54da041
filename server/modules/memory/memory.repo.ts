// Database access of memory: facts about the user per character, and each chat's rolling summary.
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index";
import { preparedQuery } from "../../db/prepared";

/** Database access of memory: facts about the user per character, and chat summaries. */
export class MemoryRepo {
  constructor(private readonly db: Db) {}

  /** The newest `limit` facts a character remembers about the user, newest first. */
  async listFacts(userId: string, characterId: string, limit?: number) {
    if (limit !== undefined) return (await newestFacts(this.db, { userId, characterId, limit })).rows;
    return factsQuery(this.db, { userId, characterId }).execute();
  }

  /**
   * Stores a fact; `source` is the chat session and the order key of the newest
   * message it was drawn from (none: "" and 0).
   */
  async insertFact(
    userId: string,
    characterId: string,
    fact: string,
    now: number,
    source: { sessionId: string; seq: number } = { sessionId: "", seq: 0 },
  ): Promise<void> {
    await this.db
      .insertInto("memories")
      .values({
        id: randomUUID(),
        user_id: userId,
        character_id: characterId,
        fact,
        created_at: now,
        session_id: source.sessionId,
        source_seq: source.seq,
      })
      .execute();
  }

  /**
   * Edit, delete and rewind: the entries of a session of the user from `fromSeq` on
   * changed. With `facts`, the facts drawn from them (source_seq >= fromSeq) are deleted and the
   * extraction goes back before them (and before the batch they were drawn in); a summary that covers any of them is cleared. One
   * transaction. @returns whether the session is the user's, facts were deleted, and the
   * summary was cleared.
   */
  async forgetFrom(input: {
    userId: string;
    sessionId: string;
    fromSeq: number;
    facts: boolean;
  }): Promise<{ found: boolean; factsDeleted: number; summaryCleared: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const session = await trx
        .selectFrom("chat_sessions")
        .select(["facts_until_seq", "summary_until_seq"])
        .where("id", "=", input.sessionId)
        .where("user_id", "=", input.userId)
        .executeTakeFirst();
      if (!session) return { found: false, factsDeleted: 0, summaryCleared: false };
      let factsDeleted = 0;
      if (input.facts) {
        const deleted = await trx
          .deleteFrom("memories")
          .where("user_id", "=", input.userId)
          .where("session_id", "=", input.sessionId)
          .where("source_seq", ">=", input.fromSeq)
          .executeTakeFirst();
        factsDeleted = Number(deleted.numDeletedRows);
        // A fact records the newest message of its batch only: a deleted fact's batch may have
        // begun before `fromSeq`. Extraction goes back to the newest batch that kept its facts
        // (a later batch that gave none is read again: it gives none again, and a fact already
        // known is never stored twice).
        let back = input.fromSeq - 1;
        if (factsDeleted > 0) {
          const kept = await trx
            .selectFrom("memories")
            .select((eb) => eb.fn.max("source_seq").as("seq"))
            .where("user_id", "=", input.userId)
            .where("session_id", "=", input.sessionId)
            .executeTakeFirst();
          back = Math.min(back, Number(kept?.seq ?? 0));
        }
        if (Number(session.facts_until_seq) > back) {
          await trx
            .updateTable("chat_sessions")
            .set({ facts_until_seq: back })
            .where("id", "=", input.sessionId)
            .execute();
        }
      }
      const summaryCleared = Number(session.summary_until_seq) >= input.fromSeq;
      if (summaryCleared) {
        await trx
          .updateTable("chat_sessions")
          .set({ summary: "", summary_until_seq: 0 })
          .where("id", "=", input.sessionId)
          .execute();
      }
      return { found: true, factsDeleted, summaryCleared };
    });
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

  /**
   * How far facts were extracted in a session of the user: the order key (seq) of the
   * newest entry done; undefined when the session is gone or not the user's.
   */
  async factsUntilSeq(sessionId: string, userId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom("chat_sessions")
      .select("facts_until_seq")
      .where("id", "=", sessionId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.facts_until_seq);
  }

  /** The user's words of a session's entries after `afterSeq`, oldest first, at most `limit`. */
  userMessagesAfter(sessionId: string, afterSeq: number, limit: number) {
    return this.db
      .selectFrom("chat_history")
      .select(["seq", "message", "character_id"])
      .where("session_id", "=", sessionId)
      .where("seq", ">", afterSeq)
      .orderBy("seq")
      .limit(limit)
      .execute();
  }

  /** Records facts extracted up to `untilSeq`, unless another extraction moved on from `fromSeq`. */
  async advanceFacts(sessionId: string, fromSeq: number, untilSeq: number): Promise<void> {
    await this.db
      .updateTable("chat_sessions")
      .set({ facts_until_seq: untilSeq })
      .where("id", "=", sessionId)
      .where("facts_until_seq", "=", fromSeq)
      .execute();
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

/** A character's facts about the user, newest first. */
const factsQuery = (db: Db, p: { userId: string; characterId: string }) =>
  db
    .selectFrom("memories")
    .select(["id", "fact", "created_at", "session_id", "source_seq"])
    .where("user_id", "=", p.userId)
    .where("character_id", "=", p.characterId)
    .orderBy("created_at", "desc");
/** The newest `limit` of them (read for every prompt: compiled once). */
const newestFacts = preparedQuery((db, p: { userId: string; characterId: string; limit: number }) =>
  factsQuery(db, p).limit(p.limit),
);
