// The versions of a chat's entries as stored: the swipes of a reply (swipes), the chosen one, and edits.
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index";
import type { ChatHistoryRow } from "../../db/schema";

/** One reply an entry has had (chat_reply_swipes), as the entry would carry it. */
export type ReplySwipe = Pick<ChatHistoryRow, "reply_message" | "reply_audio_url">;
/**
 * Database access of the entries' versions: `chat_reply_swipes`, and the fields of
 * `chat_history` a swipe or an edit changes.
 */
export class VersionsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Swipes: the swipes of the given entries (one query for a page), by entry id,
   * each list in position order. Entries without swipes are absent.
   */
  async swipes(entryIds: string[]): Promise<Map<string, ReplySwipe[]>> {
    const byEntry = new Map<string, ReplySwipe[]>();
    if (entryIds.length === 0) return byEntry;
    const rows = await this.db
      .selectFrom("chat_reply_swipes")
      .select(["entry_id", "position", "reply_message", "reply_audio_url"])
      .where("entry_id", "in", entryIds)
      .orderBy("entry_id")
      .orderBy("position")
      .execute();
    for (const row of rows) {
      const list = byEntry.get(row.entry_id);
      const swipe = { reply_message: row.reply_message, reply_audio_url: row.reply_audio_url };
      if (list) list.push(swipe);
      else byEntry.set(row.entry_id, [swipe]);
    }
    return byEntry;
  }

  /**
   * Stores a new reply of an entry as its next swipe and chooses it, in one
   * transaction: the first time, the entry's reply as stored (with its audio) becomes swipe
   * 0 (unless it has none: a failed reply). At most `max` swipes. @returns the new swipe's index; "full" at `max`;
   * "gone" when the entry was deleted meanwhile.
   */
  async addSwipe(
    entryId: string,
    reply: { reply_message: string; reply_time: number; status: string },
    max: number,
  ): Promise<number | "full" | "gone"> {
    return this.db.transaction().execute(async (trx) => {
      // The entry's row first: concurrent writers of its swipes wait here (PostgreSQL).
      const current = await trx
        .updateTable("chat_history")
        .set((eb) => ({ swipe_index: eb.ref("swipe_index") }))
        .where("id", "=", entryId)
        .returning(["reply_message", "reply_audio_url"])
        .executeTakeFirst();
      if (!current) return "gone";
      const positions = await trx
        .selectFrom("chat_reply_swipes")
        .select("position")
        .where("entry_id", "=", entryId)
        .orderBy("position", "desc")
        .execute();
      let next = positions.length === 0 ? 0 : positions[0]!.position + 1;
      // A reply that failed (none stored) is not kept as a swipe.
      if (positions.length === 0 && current.reply_message !== "") {
        await trx
          .insertInto("chat_reply_swipes")
          .values({
            id: randomUUID(),
            entry_id: entryId,
            position: 0,
            reply_message: current.reply_message,
            reply_audio_url: current.reply_audio_url,
            created_at: reply.reply_time,
          })
          .execute();
        next = 1;
      }
      if (next >= max) return "full";
      await trx
        .insertInto("chat_reply_swipes")
        .values({
          id: randomUUID(),
          entry_id: entryId,
          position: next,
          reply_message: reply.reply_message,
          reply_audio_url: "",
          created_at: reply.reply_time,
        })
        .execute();
      await trx
        .updateTable("chat_history")
        .set({ ...reply, reply_audio_url: "", swipe_index: next, continue_count: 0 })
        .where("id", "=", entryId)
        .execute();
      return next;
    });
  }

  /**
   * Chooses swipe `index` of an entry: the entry's reply and its audio become that
   * swipe's. @returns the swipe, or undefined when the entry has none at `index`.
   */
  async chooseSwipe(entryId: string, index: number): Promise<ReplySwipe | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const chosen = await trx
        .selectFrom("chat_reply_swipes")
        .select(["reply_message", "reply_audio_url"])
        .where("entry_id", "=", entryId)
        .where("position", "=", index)
        .executeTakeFirst();
      if (!chosen) return undefined;
      await trx
        .updateTable("chat_history")
        .set({ ...chosen, swipe_index: index, continue_count: 0 })
        .where("id", "=", entryId)
        .execute();
      return chosen;
    });
  }

  /**
   * Writes a continued reply into the entry's chosen swipe, if it has swipes (a swipe away and back keeps the continuation); its audio no longer matches and is dropped.
   */
  async continueChosenSwipe(entryId: string, index: number, reply: string): Promise<void> {
    await this.db
      .updateTable("chat_reply_swipes")
      .set({ reply_message: reply, reply_audio_url: "" })
      .where("entry_id", "=", entryId)
      .where("position", "=", index)
      .execute();
  }

  /** Records the spoken audio of an entry's swipe `index` (audio per swipe). */
  async setSwipeAudio(entryId: string, index: number, audioUrl: string): Promise<void> {
    await this.db
      .updateTable("chat_reply_swipes")
      .set({ reply_audio_url: audioUrl })
      .where("entry_id", "=", entryId)
      .where("position", "=", index)
      .execute();
  }

  /**
   * Edit: replaces the user's message, or the reply's text (and the chosen
   * swipe's, whose audio no longer matches and is dropped with the entry's).
   */
  async editEntry(
    entry: Pick<ChatHistoryRow, "id" | "swipe_index">,
    edit: { message: string } | { reply_message: string },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if ("message" in edit) {
        await trx
          .updateTable("chat_history")
          .set({ message: edit.message })
          .where("id", "=", entry.id)
          .execute();
        return;
      }
      const reply = { reply_message: edit.reply_message, reply_audio_url: "" };
      await trx.updateTable("chat_history").set(reply).where("id", "=", entry.id).execute();
      await trx
        .updateTable("chat_reply_swipes")
        .set(reply)
        .where("entry_id", "=", entry.id)
        .where("position", "=", entry.swipe_index)
        .execute();
    });
  }
}
