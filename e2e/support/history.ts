import { randomUUID } from "node:crypto";
import type { startTestServer } from "../../server/testing/server";

type Db = Awaited<ReturnType<typeof startTestServer>>["db"];

/** One stored exchange: the user's message and the character's reply. */
export interface StoredExchange {
  message: string;
  reply: string;
}

/**
 * Stores `exchanges` (oldest first) as replied history entries of the user's one-to-one chat
 * with `characterId`, straight into the test server's database, one minute apart and ending
 * a minute ago. The chat session must exist (open the chat once: the greeting creates it).
 * @returns the session id.
 */
export async function storeHistory(
  db: Db,
  userId: string,
  characterId: string,
  exchanges: StoredExchange[],
): Promise<string> {
  const session = await db
    .selectFrom("chat_sessions")
    .select("id")
    .where("user_id", "=", userId)
    .where("chat_key", "=", characterId)
    .executeTakeFirstOrThrow();
  const now = Date.now();
  // seq orders a session's entries; epoch microseconds keeps them after the greeting.
  const base = now * 1000;
  const rows = exchanges.map((exchange, i) => {
    const sentAt = now - (exchanges.length - i) * 60_000;
    return {
      id: randomUUID(),
      session_id: session.id,
      character_id: characterId,
      message: exchange.message,
      message_image: "",
      send_time: sentAt,
      reply_message: exchange.reply,
      reply_image: "",
      reply_audio_url: "",
      reply_time: sentAt + 1000,
      image_loading: 0,
      status: "replied",
      error: "",
      seq: base + i,
      client_message_id: "",
    };
  });
  // PostgreSQL caps bind parameters per statement: insert in slices.
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto("chat_history")
      .values(rows.slice(start, start + 500))
      .execute();
  }
  return session.id;
}
