// The history of a chat as stored: its entries (user words and replies), pages, photos, deletes and the rewind.
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index";
import { firstRow, preparedQuery } from "../../db/prepared";
import type { ChatHistoryRow } from "../../db/schema";
import { touchSession } from "./chats.repo";
import type { VersionsRepo } from "./versions.repo";

let lastSeq = 0;
/** Order key of a new history entry: epoch microseconds, strictly increasing in this process. */
export function nextSeq(now: number): number {
  lastSeq = Math.max(now * 1000, lastSeq + 1);
  return lastSeq;
}

/**
 * Makes this process's next order key come after `seq` (entries stored with order keys of their
 * own, an imported chat's), so a message sent next is ordered after them.
 */
export function seqAfter(seq: number): void {
  lastSeq = Math.max(lastSeq, seq);
}

/**
 * A new history entry of `sessionId`: the user's `message` to `characterId`, sent at `now` (epoch
 * ms), pending its reply. Not stored yet.
 * @param owner the lease id of the process that will generate its reply (ChatHistoryTable.owner);
 *   "" when none is known.
 */
export function newHistoryEntry(
  sessionId: string,
  characterId: string,
  message: string,
  now: number,
  owner = "",
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
    swipe_index: 0,
    owner,
  };
}

/** The fields of a stored entry a reply, its speech or its failure may change. */
export type EntryPatch = Partial<
  Pick<ChatHistoryRow, "reply_message" | "reply_time" | "status" | "error" | "reply_audio_url">
>;

/** An entry as the prompt's history reads it. */
export type HistoryText = Pick<
  ChatHistoryRow,
  "id" | "message" | "reply_message" | "character_id" | "seq" | "status"
>;

/** A photo of the Photo List (product.md §3 "Photo history entry"). */
export type PhotoRow = Pick<ChatHistoryRow, "id" | "message_image" | "reply_image" | "send_time">;
/**
 * Database access of the history: the entries of chat sessions and, through `versions`, their
 * replies' swipes and edits. The only code that reads or writes `chat_history` rows one
 * entry at a time.
 */
export class HistoryRepo {
  constructor(
    private readonly db: Db,
    /** The swipes of the entries' replies (swipes) and the edits of entries. */
    readonly versions: VersionsRepo,
  ) {}

  /**
   * Stores the greetings of a chat whose history is empty, once: the session's `greeted` flag is
   * flipped in the same transaction, so a concurrent caller waits on the row and then sees them.
   * @param swipes each greeting's swipes by entry id (the card's first
   *   message, then its alternate greetings), stored with them.
   * @returns true when this call stored them.
   */
  async storeGreetingsOnce(
    sessionId: string,
    entries: ChatHistoryRow[],
    swipes: ReadonlyMap<string, string[]> = new Map(),
  ): Promise<boolean> {
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
      const rows = entries.flatMap((entry) =>
        (swipes.get(entry.id) ?? []).map((reply_message, position) => ({
          id: randomUUID(),
          entry_id: entry.id,
          position,
          reply_message,
          reply_audio_url: "",
          created_at: entry.send_time,
        })),
      );
      if (rows.length > 0) await trx.insertInto("chat_reply_swipes").values(rows).execute();
      return true;
    });
  }

  /**
   * A page of history counted from the newest entry (product.md §9: offset grows by the page size),
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

  /**
   * The newest `limit` exchanges' texts after `afterSeq` (what the rolling summary does not
   * cover), oldest first: the prompt's history.
   */
  async recentTexts(sessionId: string, limit: number, afterSeq = 0): Promise<HistoryText[]> {
    const { rows } = await recentTexts(this.db, { sessionId, afterSeq, limit });
    return rows.reverse();
  }

  /**
   * The two newest entries of a session as the prompt sees them (id, reply, status), newest
   * first ([] when the history is empty): the cheap check that a cached prompt window is still
   * the history's newest part. Two, because an entry another instance stored just
   * before this process's newest one is seen only as the second newest.
   */
  async newestTexts(sessionId: string): Promise<Array<Pick<HistoryText, "id" | "reply_message" | "status">>> {
    return (await newestTexts(this.db, { sessionId })).rows;
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

  /** The entry a client sent with this id in this session, if any. */
  findByClientMessageId(sessionId: string, clientMessageId: string): Promise<ChatHistoryRow | undefined> {
    return firstRow(entryByClientId(this.db, { sessionId, clientMessageId }));
  }

  /**
   * Stores a user's entry in one transaction with what goes with it (one write
   * transaction per message instead of three): first `reserve` (the send's charge, a message of
   * the quota, run in the transaction; its error, e.g. the limit, undoes everything), then the entry, then the
   * session's last-use time when `touchAt` (epoch ms) is given. A unique violation (the same
   * client id sent twice at once) undoes the charge with the entry and is rethrown.
   * @returns what `reserve` returned.
   */
  insertEntryReserving<T>(
    entry: ChatHistoryRow,
    reserve: (trx: Db) => Promise<T>,
    touchAt?: number,
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const reserved = await reserve(trx);
      await insertEntry(trx, entry);
      if (touchAt !== undefined) await touchSession(trx, { sessionId: entry.session_id, now: touchAt });
      return reserved;
    });
  }

  async insertEntry(entry: ChatHistoryRow): Promise<void> {
    await this.db.insertInto("chat_history").values(entry).execute();
  }

  async updateEntry(id: string, patch: EntryPatch): Promise<void> {
    // A field left undefined is not changed (as Kysely's `set` does).
    const fields = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    await updateEntry(this.db, { ...fields, id });
  }

  /**
   * The chat's photos for the Photo List (product.md §2, 3 "Photo history entry"): entries with the
   * user's attached photo or a finished reply image, oldest first.
   */
  photos(sessionId: string): Promise<PhotoRow[]> {
    return this.db
      .selectFrom("chat_history")
      .select(["id", "message_image", "reply_image", "send_time"])
      .where("session_id", "=", sessionId)
      .where((eb) => eb.or([eb("message_image", "<>", ""), eb("reply_image", "<>", "")]))
      .orderBy("seq")
      .execute();
  }
  /** The newest entry of a session answered by `characterId` (a group member's newest). */
  newestOf(sessionId: string, characterId: string): Promise<ChatHistoryRow | undefined> {
    return this.db
      .selectFrom("chat_history")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("character_id", "=", characterId)
      .orderBy("seq", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  /** A session's entries after `afterSeq`, oldest first (what a rewind removes). */
  entriesAfter(sessionId: string, afterSeq: number): Promise<ChatHistoryRow[]> {
    return this.db
      .selectFrom("chat_history")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("seq", ">", afterSeq)
      .orderBy("seq")
      .execute();
  }

  /**
   * Deletes entries of a session (delete and rewind); their swipes go with them
   * (the foreign key cascades).
   */
  async deleteEntries(sessionId: string, entryIds: string[]): Promise<void> {
    if (entryIds.length === 0) return;
    await this.db
      .deleteFrom("chat_history")
      .where("session_id", "=", sessionId)
      .where("id", "in", entryIds)
      .execute();
  }

  /**
   * Replaces a session's history with `entries` (and their reply swipes) in one transaction, as
   * New Chat deletes it: the summary is emptied and the greeting is not stored again. The memory
   * points (order keys, µs) say where the summary and the extraction of facts start.
   * @param entries in order, at most a few tens of thousands (inserted in batches).
   */
  async replaceSession(
    sessionId: string,
    entries: ChatHistoryRow[],
    swipes: ReadonlyMap<string, string[]>,
    points: { summaryUntilSeq: number; factsUntilSeq: number },
  ): Promise<void> {
    const swipeRows = entries.flatMap((entry) =>
      (swipes.get(entry.id) ?? []).map((reply_message, position) => ({
        id: randomUUID(),
        entry_id: entry.id,
        position,
        reply_message,
        reply_audio_url: "",
        created_at: entry.reply_time ?? entry.send_time,
      })),
    );
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("chat_history").where("session_id", "=", sessionId).execute();
      // Well under PostgreSQL's 65535 parameters per statement.
      for (let i = 0; i < entries.length; i += INSERT_BATCH)
        await trx
          .insertInto("chat_history")
          .values(entries.slice(i, i + INSERT_BATCH))
          .execute();
      for (let i = 0; i < swipeRows.length; i += INSERT_BATCH)
        await trx
          .insertInto("chat_reply_swipes")
          .values(swipeRows.slice(i, i + INSERT_BATCH))
          .execute();
      await trx
        .updateTable("chat_sessions")
        .set({
          summary: "",
          summary_until_seq: points.summaryUntilSeq,
          facts_until_seq: points.factsUntilSeq,
          greeted: 1,
        })
        .where("id", "=", sessionId)
        .execute();
    });
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

/** Rows per INSERT statement of a replaced history (18 columns each). */
const INSERT_BATCH = 500;

// The queries of every chat message, built and compiled once (server/db/prepared.ts).
const recentTexts = preparedQuery((db, p: { sessionId: string; afterSeq: number; limit: number }) =>
  db
    .selectFrom("chat_history")
    .select(["id", "message", "reply_message", "character_id", "seq", "status"])
    .where("session_id", "=", p.sessionId)
    .where("seq", ">", p.afterSeq)
    .orderBy("seq", "desc")
    .limit(p.limit),
);
const newestTexts = preparedQuery((db, p: { sessionId: string }) =>
  db
    .selectFrom("chat_history")
    .select(["id", "reply_message", "status"])
    .where("session_id", "=", p.sessionId)
    .orderBy("seq", "desc")
    .limit(2),
);
const entryByClientId = preparedQuery((db, p: { sessionId: string; clientMessageId: string }) =>
  db
    .selectFrom("chat_history")
    .selectAll()
    .where("session_id", "=", p.sessionId)
    .where("client_message_id", "=", p.clientMessageId),
);
/** Inserts a whole entry (every field a value; the field names fix the statement). */
const insertEntry = preparedQuery((db, p: ChatHistoryRow) => db.insertInto("chat_history").values(p));
/** Sets the patch's fields of the entry `id`. */
const updateEntry = preparedQuery((db, p: EntryPatch & { id: string }) => {
  const { id, ...patch } = p;
  return db.updateTable("chat_history").set(patch).where("id", "=", id);
});
