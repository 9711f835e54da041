import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index";
import { firstRow, preparedQuery } from "../../db/prepared";
import type { Character, ChatHistoryRow, ChatSession } from "../../db/schema";
import { charactersOfUser, findOwnedCharacter } from "./character-queries";

let lastSeq = 0;
/** Order key of a new history entry: epoch microseconds, strictly increasing in this process. */
export function nextSeq(now: number): number {
  lastSeq = Math.max(now * 1000, lastSeq + 1);
  return lastSeq;
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
    alternative_index: 0,
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

/** One reply an entry has had (chat_reply_alternatives), as the entry would carry it. */
export type ReplyAlternative = Pick<ChatHistoryRow, "reply_message" | "reply_audio_url">;

/** A photo of the Photo List (product.md §3 "Photo history entry"). */
export type PhotoRow = Pick<ChatHistoryRow, "id" | "message_image" | "reply_image" | "send_time">;

/**
 * Database access of the conversation: the user's characters and groups as chats, chat sessions
 * and their history entries. The only code that reads or writes `chat_sessions` and
 * `chat_history` rows one entry at a time.
 */
export class ConversationRepo {
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

  async touchSession(sessionId: string, now: number): Promise<void> {
    await touchSession(this.db, { sessionId, now });
  }

  /**
   * Stores the greetings of a chat whose history is empty, once: the session's `greeted` flag is
   * flipped in the same transaction, so a concurrent caller waits on the row and then sees them.
   * @param alternatives each greeting's alternatives by entry id (the card's first
   *   message, then its alternate greetings), stored with them.
   * @returns true when this call stored them.
   */
  async storeGreetingsOnce(
    sessionId: string,
    entries: ChatHistoryRow[],
    alternatives: ReadonlyMap<string, string[]> = new Map(),
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
        (alternatives.get(entry.id) ?? []).map((reply_message, position) => ({
          id: randomUUID(),
          entry_id: entry.id,
          position,
          reply_message,
          reply_audio_url: "",
          created_at: entry.send_time,
        })),
      );
      if (rows.length > 0) await trx.insertInto("chat_reply_alternatives").values(rows).execute();
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
   * transaction per message instead of three): first `reserve` (the quota reservation, run in
   * the transaction; its error, e.g. the limit, undoes everything), then the entry, then the
   * session's last-use time when `touchAt` (epoch ms) is given. A unique violation (the same
   * client id sent twice at once) undoes the reservation with the entry and is rethrown.
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
   * Swipes: the alternatives of the given entries (one query for a page), by entry id,
   * each list in position order. Entries without alternatives are absent.
   */
  async alternatives(entryIds: string[]): Promise<Map<string, ReplyAlternative[]>> {
    const byEntry = new Map<string, ReplyAlternative[]>();
    if (entryIds.length === 0) return byEntry;
    const rows = await this.db
      .selectFrom("chat_reply_alternatives")
      .select(["entry_id", "position", "reply_message", "reply_audio_url"])
      .where("entry_id", "in", entryIds)
      .orderBy("entry_id")
      .orderBy("position")
      .execute();
    for (const row of rows) {
      const list = byEntry.get(row.entry_id);
      const alternative = { reply_message: row.reply_message, reply_audio_url: row.reply_audio_url };
      if (list) list.push(alternative);
      else byEntry.set(row.entry_id, [alternative]);
    }
    return byEntry;
  }

  /**
   * Stores a new reply of an entry as its next alternative and chooses it, in one
   * transaction: the first time, the entry's reply as stored (with its audio) becomes alternative
   * 0 (unless it has none: a failed reply). At most `max` alternatives. @returns the new alternative's index; "full" at `max`;
   * "gone" when the entry was deleted meanwhile.
   */
  async addAlternative(
    entryId: string,
    reply: { reply_message: string; reply_time: number; status: string },
    max: number,
  ): Promise<number | "full" | "gone"> {
    return this.db.transaction().execute(async (trx) => {
      // The entry's row first: concurrent writers of its alternatives wait here (PostgreSQL).
      const current = await trx
        .updateTable("chat_history")
        .set((eb) => ({ alternative_index: eb.ref("alternative_index") }))
        .where("id", "=", entryId)
        .returning(["reply_message", "reply_audio_url"])
        .executeTakeFirst();
      if (!current) return "gone";
      const positions = await trx
        .selectFrom("chat_reply_alternatives")
        .select("position")
        .where("entry_id", "=", entryId)
        .orderBy("position", "desc")
        .execute();
      let next = positions.length === 0 ? 0 : positions[0]!.position + 1;
      // A reply that failed (none stored) is not kept as an alternative.
      if (positions.length === 0 && current.reply_message !== "") {
        await trx
          .insertInto("chat_reply_alternatives")
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
        .insertInto("chat_reply_alternatives")
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
        .set({ ...reply, reply_audio_url: "", alternative_index: next, continue_count: 0 })
        .where("id", "=", entryId)
        .execute();
      return next;
    });
  }

  /**
   * Chooses alternative `index` of an entry: the entry's reply and its audio become that
   * alternative's. @returns the alternative, or undefined when the entry has none at `index`.
   */
  async chooseAlternative(entryId: string, index: number): Promise<ReplyAlternative | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const chosen = await trx
        .selectFrom("chat_reply_alternatives")
        .select(["reply_message", "reply_audio_url"])
        .where("entry_id", "=", entryId)
        .where("position", "=", index)
        .executeTakeFirst();
      if (!chosen) return undefined;
      await trx
        .updateTable("chat_history")
        .set({ ...chosen, alternative_index: index, continue_count: 0 })
        .where("id", "=", entryId)
        .execute();
      return chosen;
    });
  }

  /**
   * Writes a continued reply into the entry's chosen alternative, if it has alternatives (* a swipe away and back keeps the continuation); its audio no longer matches and is dropped.
   */
  async continueChosenAlternative(entryId: string, index: number, reply: string): Promise<void> {
    await this.db
      .updateTable("chat_reply_alternatives")
      .set({ reply_message: reply, reply_audio_url: "" })
      .where("entry_id", "=", entryId)
      .where("position", "=", index)
      .execute();
  }

  /** Records the spoken audio of an entry's alternative `index` (audio per alternative). */
  async setAlternativeAudio(entryId: string, index: number, audioUrl: string): Promise<void> {
    await this.db
      .updateTable("chat_reply_alternatives")
      .set({ reply_audio_url: audioUrl })
      .where("entry_id", "=", entryId)
      .where("position", "=", index)
      .execute();
  }

  /**
   * Edit: replaces the user's message, or the reply's text (and the chosen
   * alternative's, whose audio no longer matches and is dropped with the entry's).
   */
  async editEntry(
    entry: Pick<ChatHistoryRow, "id" | "alternative_index">,
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
        .updateTable("chat_reply_alternatives")
        .set(reply)
        .where("entry_id", "=", entry.id)
        .where("position", "=", entry.alternative_index)
        .execute();
    });
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
   * Deletes entries of a session (delete and rewind); their alternatives go with them
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

// The queries of every chat message, built and compiled once (server/db/prepared.ts).
const sessionOf = preparedQuery((db, p: { userId: string; chatKey: string }) =>
  db
    .selectFrom("chat_sessions")
    .selectAll()
    .where("user_id", "=", p.userId)
    .where("chat_key", "=", p.chatKey),
);
const touchSession = preparedQuery((db, p: { sessionId: string; now: number }) =>
  db.updateTable("chat_sessions").set({ updated_at: p.now }).where("id", "=", p.sessionId),
);
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
