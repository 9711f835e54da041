import { FIRST_MESSAGE_MARKER, REPLY_ALTERNATIVES_MAX } from "../../../common/constants";
import type { Character, ChatHistoryRow, ChatSession, User } from "../../db/schema";
import { CACHE_TTL_MS, type CacheGroup, ShortCache } from "../../db/short-cache";
import { AppError, badRequest, notFound } from "../../errors";
import type { ChatMessage } from "../../providers/llm/llm";
import { storedLorebook } from "../prompt/lorebook";
import {
  buildChatPrompt,
  fillPlaceholders,
  type RememberedFacts,
  type SenderContext,
  stopStrings,
} from "../prompt/prompt";
import type { QuotaService, Reservation } from "../quota/quota.service";
import { assertAdultConfirmed, assertAllowedContent } from "../safety/content-rules";
import {
  type ConversationRepo,
  type EntryPatch,
  type HistoryText,
  newHistoryEntry,
  type PhotoRow,
} from "./conversation.repo";

/** A chat as the client names it: one character, or a group of them. */
export interface ResolvedChat {
  /** The id the client uses: the character's or the group's. */
  chatKey: string;
  /** The group's id; "" for a chat with one character. */
  groupId: string;
  /** The characters of the chat, in the group's position order. */
  members: Character[];
  /**
   * In a group: when each member joined, epoch ms by character id ("Scene-aware
   * groups": a member's prompt holds only what was said since it joined; 0 = from the start).
   */
  memberSince?: ReadonlyMap<string, number>;
}

/** What storing a user's entry gave: a new entry, or the one sent earlier with the same client id. */
export type AppendResult =
  | { repeated: ChatHistoryRow }
  | { session: ChatSession; entry: ChatHistoryRow; reservation: Reservation };

/** What a prompt for a character's reply is built with (the model's budget). */
export interface PromptModel {
  contextWindow(): number;
  countTokens(text: string): number;
}

/** A session's last-use time is recorded at most this often per chat, milliseconds. */
export const SESSION_TOUCH_MS = 60_000;
/** Users whose last touched session is remembered; the map starts afresh past this. */
const LAST_TOUCHED_MAX = 10_000;
/** Most characters, chat sessions and prompt windows kept by the per-process caches. */
const CACHED_ROWS_MAX = 10_000;
/** Entries whose prompt window is known; the map starts afresh past this. */
const TRACKED_ENTRIES_MAX = 50_000;

/** The newest exchanges of a chat as its next prompt reads them (kept per chat). */
interface PromptWindow {
  /** The summary covered the history up to this order key when it was read. */
  afterSeq: number;
  /** Most exchanges it holds. */
  limit: number;
  /** Oldest first. */
  rows: HistoryText[];
}

/**
 * A card's alternate greetings as stored (characters.alternate_greetings, a JSON array of
 * strings): the non-blank strings, at most REPLY_ALTERNATIVES_MAX - 1 (the first message
 * is the first alternative). Anything unreadable counts as none.
 */
export function alternateGreetings(stored: string | undefined): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored || "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed
    .filter((g): g is string => typeof g === "string" && g.trim() !== "")
    .slice(0, REPLY_ALTERNATIVES_MAX - 1);
}

/** How characters address the user: the full name, else the user name. */
export function displayName(user: User): string {
  return user.full_name.trim() || user.user_name.trim() || "friend";
}

/**
 * The conversation (product.md §4, 7 "Chat"): which chat an id names for a user, its session, the
 * greeting, the user's entries and the history. Chat, pictures, voice and memory all reach a
 * conversation through this service, so the rules of storing a user's entry (adult check,
 * content rules, quota, client-id idempotency) live in one place. Every id from the client is
 * checked against the signed-in user before anything is read or written.
 */
export class ConversationService {
  constructor(
    private readonly repo: ConversationRepo,
    /** Every user entry reserves one message of the quota first. */
    private readonly quota: QuotaService,
    private readonly now: () => number = Date.now,
    /**
     * Where the per-process caches of the user's characters and chat sessions join (* two reads less per message). How stale they may be is the rule of server/db/short-cache.ts:
     * a few seconds at most, dropped at once by this service's own writes (greeting, New Chat)
     * and by the user's write requests; without it nothing is cached.
     */
    caches?: CacheGroup,
    /**
     * The lease id of this server process (InstanceLease.id): recorded as the owner of the
     * entries it stores, so another process settles them if this one stops. "" records none.
     */
    private readonly owner = "",
  ) {
    if (caches) {
      this.characters = new ShortCache({ ttlMs: CACHE_TTL_MS, max: CACHED_ROWS_MAX }, caches);
      this.sessions = new ShortCache({ ttlMs: CACHE_TTL_MS, max: CACHED_ROWS_MAX }, caches);
      this.windows = new ShortCache({ ttlMs: CACHE_TTL_MS, max: CACHED_ROWS_MAX }, caches);
    }
  }

  /**
   * The prompt windows by session id, when caching: entries this service stores are appended
   * and the replies it records are written in, instead of reading the history again for every
   * reply. Before a cached window is used, the history's two newest entries are read and must be
   * the window's newest as the window has it (same id, reply and status) and the one before it,
   * so an entry or a reply written elsewhere (another instance, a picture job, the settlement of a
   * stalled reply), also one stored just before this process's newest, makes it read afresh. A change to an older entry made elsewhere is seen within the cache's ttl.
   */
  private readonly windows?: ShortCache<PromptWindow>;
  /** Entry id → the session whose cached window holds it (the entries a reply may be recorded on). */
  private readonly windowOfEntry = new Map<string, string>();

  /** The newest `limit` exchanges after the summary, oldest first: from the window cache, else read. */
  private async historyTexts(session: ChatSession, limit: number): Promise<HistoryText[]> {
    const cache = this.windows;
    const afterSeq = session.summary_until_seq;
    if (!cache) return this.repo.recentTexts(session.id, limit, afterSeq);
    const now = this.now();
    const cached = cache.get(session.id, now);
    if (cached && cached.afterSeq === afterSeq && cached.limit === limit) {
      const [newest, before] = await this.repo.newestTexts(session.id);
      const last = cached.rows.at(-1);
      const previous = cached.rows.at(-2);
      // The newest as the window has it, and the one before it the same entry: an entry another
      // instance stored between this process's last two would sit there (seq is time-ordered).
      const same = newest
        ? last?.id === newest.id &&
          last.reply_message === newest.reply_message &&
          last.status === newest.status &&
          (before === undefined ? previous === undefined : previous?.id === before.id)
        : last === undefined;
      if (same) return cached.rows.slice();
    }
    const epoch = cache.epoch();
    const rows = await this.repo.recentTexts(session.id, limit, afterSeq);
    cache.set(session.id, session.user_id, { afterSeq, limit, rows }, now, epoch);
    for (const row of rows.slice(-2)) this.trackEntry(row.id, session.id);
    return rows.slice();
  }

  /** Appends a stored entry to its chat's cached prompt window, if one is cached. */
  private appendToWindow(entry: ChatHistoryRow): void {
    const cache = this.windows;
    const window = cache?.get(entry.session_id, this.now());
    if (!cache || !window) return;
    const last = window.rows.at(-1);
    if (last && last.seq >= entry.seq) {
      // Out of order (another writer's entry came between): read afresh next time.
      cache.delete(entry.session_id);
      return;
    }
    const { id, message, reply_message, character_id, seq, status } = entry;
    window.rows.push({ id, message, reply_message, character_id, seq, status });
    if (window.rows.length > window.limit) window.rows.shift();
    this.trackEntry(id, entry.session_id);
  }

  private trackEntry(entryId: string, sessionId: string): void {
    if (this.windowOfEntry.size >= TRACKED_ENTRIES_MAX) this.windowOfEntry.clear();
    this.windowOfEntry.set(entryId, sessionId);
  }

  /** Writes a recorded reply or status into the cached window that holds the entry. */
  private patchWindow(entryId: string, patch: EntryPatch): void {
    if (patch.reply_message === undefined && patch.status === undefined) return;
    const sessionId = this.windowOfEntry.get(entryId);
    const window = sessionId === undefined ? undefined : this.windows?.get(sessionId, this.now());
    const row = window?.rows.find((r) => r.id === entryId);
    if (!row) return;
    if (patch.reply_message !== undefined) row.reply_message = patch.reply_message;
    if (patch.status !== undefined) row.status = patch.status;
  }

  /** The user's characters by `${userId} ${characterId}`, when caching. */
  private readonly characters?: ShortCache<Character>;
  /** The chat sessions by `${userId} ${chatKey}`, when caching. */
  private readonly sessions?: ShortCache<ChatSession>;

  /** One of the user's characters: from the cache, else read (and cached). */
  private async ownedCharacter(userId: string, characterId: string): Promise<Character | undefined> {
    const cache = this.characters;
    if (!cache) return this.repo.findOwnedCharacter(userId, characterId);
    const key = `${userId} ${characterId}`;
    const now = this.now();
    const cached = cache.get(key, now);
    if (cached) return cached;
    const epoch = cache.epoch();
    const character = await this.repo.findOwnedCharacter(userId, characterId);
    if (character) cache.set(key, userId, character, now, epoch);
    return character;
  }

  /** The session of (user, chat key), created on first use: from the cache, else read (and cached). */
  private async ensureSession(userId: string, chatKey: string, isGroup: boolean, now: number) {
    const cache = this.sessions;
    if (!cache) return this.repo.ensureSession(userId, chatKey, isGroup, now);
    const key = `${userId} ${chatKey}`;
    const cached = cache.get(key, now);
    if (cached) return cached;
    const epoch = cache.epoch();
    const session = await this.repo.ensureSession(userId, chatKey, isGroup, now);
    cache.set(key, userId, session, now, epoch);
    return session;
  }

  /**
   * Drops a chat session from the cache after its row changed elsewhere in this process (the
   * memory jobs write the summary and how far facts were extracted).
   */
  sessionChanged(sessionId: string): void {
    this.sessions?.deleteWhere((session) => session.id === sessionId);
  }

  /** Drops a session from the cache (its row changed here). */
  private forgetSession(session: ChatSession): void {
    this.sessions?.delete(`${session.user_id} ${session.chat_key}`);
  }

  /**
   * Resolves a chat id to the user's character or group. An empty id means the chat the user
   * had last, else their first character (product.md §2: the chat id is empty if none was given).
   * @throws AppError 404 for an id that is not the user's; 404 "no_character" when the user has none.
   */
  async resolveChat(user: User, id: string): Promise<ResolvedChat> {
    const key = id || (await this.repo.latestChatKey(user.id)) || "";
    if (key) {
      const character = await this.ownedCharacter(user.id, key);
      if (character) return { chatKey: character.id, groupId: "", members: [character] };
      const group = await this.repo.findOwnedGroup(user.id, key);
      if (group)
        return { chatKey: group.id, groupId: group.id, members: group.members, memberSince: group.joinedAt };
      if (id) throw notFound("Chat not found.");
    }
    const first = await this.repo.firstCharacter(user.id);
    if (!first) throw new AppError("no_character", "Choose a character first.");
    return { chatKey: first.id, groupId: "", members: [first] };
  }

  /** One of the user's characters, or undefined when the id is not theirs. */
  findOwnedCharacter(user: User, characterId: string): Promise<Character | undefined> {
    return this.ownedCharacter(user.id, characterId);
  }

  /** One of the user's groups with its members, or undefined when the id is not theirs. */
  findOwnedGroup(user: User, groupId: string): Promise<{ id: string; members: Character[] } | undefined> {
    return this.repo.findOwnedGroup(user.id, groupId);
  }

  /** The session of a resolved chat, created on first use. */
  session(user: User, chat: ResolvedChat): Promise<ChatSession> {
    return this.ensureSession(user.id, chat.chatKey, Boolean(chat.groupId), this.now());
  }

  /** A session by id (after an ownership check of one of its entries). */
  sessionById(sessionId: string): Promise<ChatSession | undefined> {
    return this.repo.sessionById(sessionId);
  }

  /**
   * One page of history, oldest first (product.md §9: page size 10, offset from the newest). When the
   * chat has no history yet, each member with a greeting greets once first (product.md §4), stored
   * with the ##first-message## marker.
   * @throws as resolveChat.
   */
  async historyPage(user: User, id: string, offset: number, limit: number): Promise<ChatHistoryRow[]> {
    const chat = await this.resolveChat(user, id);
    const session = await this.session(user, chat);
    if (offset === 0 && !session.greeted) await this.greet(session, chat, user);
    return this.repo.page(session.id, offset, limit);
  }

  /** The newest entry of a session, if any. */
  async newestEntry(sessionId: string): Promise<ChatHistoryRow | undefined> {
    const [newest] = await this.repo.page(sessionId, 0, 1);
    return newest;
  }

  /** The newest entry of a session answered by `characterId`, if any. */
  newestEntryOf(sessionId: string, characterId: string): Promise<ChatHistoryRow | undefined> {
    return this.repo.newestOf(sessionId, characterId);
  }

  /**
   * GET /chat/history/photos: the chat's photos (product.md §3 "Photo history entry"), oldest first.
   * @throws as resolveChat.
   */
  async photoHistory(user: User, chatId: string): Promise<{ chat: ResolvedChat; rows: PhotoRow[] }> {
    const chat = await this.resolveChat(user, chatId);
    const session = await this.session(user, chat);
    return { chat, rows: await this.repo.photos(session.id) };
  }

  /** A history entry when it belongs to one of the user's chats, else undefined. */
  findOwnedEntry(user: User, entryId: string): Promise<ChatHistoryRow | undefined> {
    return this.repo.findOwnedEntry(user.id, entryId);
  }

  /**
   * The chat an entry of the user belongs to, with its session. Undefined when the session or
   * the chat is gone. @throws as resolveChat.
   */
  async chatOfEntry(
    user: User,
    entry: ChatHistoryRow,
  ): Promise<{ chat: ResolvedChat; session: ChatSession } | undefined> {
    const session = await this.repo.sessionById(entry.session_id);
    if (!session || session.user_id !== user.id) return undefined;
    return { chat: await this.resolveChat(user, session.chat_key), session };
  }

  private async greet(session: ChatSession, chat: ResolvedChat, user: User): Promise<void> {
    const now = this.now();
    const alternatives = new Map<string, string[]>();
    const greetings = chat.members
      .filter((member) => member.greeting.trim())
      .map((member) => {
        const fill = (text: string) => fillPlaceholders(text, member.name, displayName(user));
        const entry = {
          ...newHistoryEntry(session.id, member.id, FIRST_MESSAGE_MARKER, now),
          reply_message: fill(member.greeting),
          reply_time: now,
          status: "replied",
        };
        // A card's alternate greetings are swipes of the first message.
        const others = alternateGreetings(member.alternate_greetings);
        if (others.length > 0) alternatives.set(entry.id, [entry.reply_message, ...others.map(fill)]);
        return entry;
      });
    await this.repo.storeGreetingsOnce(session.id, greetings, alternatives);
    this.forgetSession(session);
    this.windows?.delete(session.id);
  }

  /**
   * Stores a user's entry in a chat, the one place of its rules: the adult check (product.md §5), the
   * reserved marker and the content rules of every plan, one message of the quota reserved
   * atomically, the greeting first when the chat has none yet (product.md §4), and at most
   * one entry per client message id (a retry answers the earlier entry, nothing is charged).
   * @param input.message the user's words, already trimmed and length-checked by the route.
   * @param input.contentLabel what the content rules call the text ("Message").
   * @param input.fields the entry's fields beyond the message (a photo's file, a loading picture).
   * @param input.store stores the new entry (default: insert it), e.g. with its picture job in one
   *   transaction; given the reservation to record. On a failure the message is given back.
   * @throws AppError 403 before the adult confirmation; 400 for the marker or refused content;
   *   429 "rate_limit:chat" at the quota's limit.
   */
  async appendUserEntry(
    user: User,
    chat: ResolvedChat,
    input: {
      characterId: string;
      message: string;
      clientMessageId?: string;
      contentLabel?: string;
      fields?: Partial<ChatHistoryRow>;
      store?: (entry: ChatHistoryRow, reservation: Reservation) => Promise<void>;
    },
  ): Promise<AppendResult> {
    const clientMessageId = input.clientMessageId ?? "";
    assertAdultConfirmed(user);
    if (input.message === FIRST_MESSAGE_MARKER) throw badRequest("message: this text is reserved.");
    assertAllowedContent(input.contentLabel ?? "Message", input.message);
    const now = this.now();
    const session = await this.ensureSession(user.id, chat.chatKey, Boolean(chat.groupId), now);
    const touch = this.touchDue(user.id, session, now);
    const store = input.store;
    if (!store) {
      // The plain message: reservation, entry and the session's time in one
      // transaction; the limit or a repeated client id (the unique index refuses the entry)
      // undoes all of it, and then the earlier entry is the answer. No read before: a repeat is rare.
      if (!session.greeted) await this.greet(session, chat, user);
      const entry = this.userEntry(session, input, clientMessageId, now);
      try {
        const reservation = await this.repo.insertEntryReserving(
          entry,
          async (trx) => {
            const reserved = await this.quota.tryReserve(user, now, trx);
            if (!reserved) throw this.quota.refused(user);
            return reserved;
          },
          touch ? now : undefined,
        );
        // The cached session knows its new time, so the next message does not write it again.
        if (touch) session.updated_at = now;
        this.appendToWindow(entry);
        return { session, entry, reservation };
      } catch (error) {
        return { repeated: await this.earlierOrThrow(session.id, clientMessageId, error) };
      }
    }
    if (clientMessageId) {
      const earlier = await this.repo.findByClientMessageId(session.id, clientMessageId);
      if (earlier) return { repeated: earlier };
    }
    const reservation = await this.quota.reserve(user, now);
    if (!session.greeted) await this.greet(session, chat, user);
    const entry = this.userEntry(session, input, clientMessageId, now);
    try {
      await store(entry, reservation);
    } catch (error) {
      await this.quota.refund(user.id, reservation);
      return { repeated: await this.earlierOrThrow(session.id, clientMessageId, error) };
    }
    this.appendToWindow(entry);
    if (touch) {
      await this.repo.touchSession(session.id, now);
      session.updated_at = now;
    }
    return { session, entry, reservation };
  }

  /** A new user entry of `session`, not stored yet. */
  private userEntry(
    session: ChatSession,
    input: { characterId: string; message: string; fields?: Partial<ChatHistoryRow> },
    clientMessageId: string,
    now: number,
  ): ChatHistoryRow {
    return {
      ...newHistoryEntry(session.id, input.characterId, input.message, now, this.owner),
      ...input.fields,
      client_message_id: clientMessageId,
    };
  }

  /**
   * After a failed insert: the entry stored with the same client id (sent twice at once, the
   * unique index let one in), else `error` is rethrown.
   */
  private async earlierOrThrow(sessionId: string, clientMessageId: string, error: unknown) {
    const earlier = clientMessageId
      ? await this.repo.findByClientMessageId(sessionId, clientMessageId)
      : undefined;
    if (!earlier) throw error;
    return earlier;
  }

  /**
   * Whether a message should record the session's last-use time (the chat opened when none is
   * named): when it is older than SESSION_TOUCH_MS, or another chat of the user was touched by
   * this process since (not a write per message).
   */
  private touchDue(userId: string, session: ChatSession, now: number): boolean {
    if (now - session.updated_at < SESSION_TOUCH_MS && this.lastTouched.get(userId) === session.id)
      return false;
    if (this.lastTouched.size >= LAST_TOUCHED_MAX) this.lastTouched.clear();
    this.lastTouched.set(userId, session.id);
    return true;
  }

  /** User id → the session this process last recorded a use of (bounded by LAST_TOUCHED_MAX). */
  private readonly lastTouched = new Map<string, string>();

  /** Stores a further answer's entry of a group turn (no user words, pending its reply). */
  async appendReplyEntry(session: ChatSession, characterId: string): Promise<ChatHistoryRow> {
    const entry = newHistoryEntry(session.id, characterId, "", this.now(), this.owner);
    await this.repo.insertEntry(entry);
    this.appendToWindow(entry);
    return entry;
  }

  /** Records a reply, its speech or its failure on an entry. */
  async updateEntry(entryId: string, patch: EntryPatch): Promise<void> {
    await this.repo.updateEntry(entryId, patch);
    this.patchWindow(entryId, patch);
  }

  /**
   * Swipes: the alternatives of the given entries, by entry id (one query for a page of
   * history; entries with fewer than two are left out).
   */
  async alternativesOf(rows: ReadonlyArray<Pick<ChatHistoryRow, "id">>): Promise<Map<string, string[]>> {
    const all = await this.repo.alternatives(rows.map((r) => r.id));
    const texts = new Map<string, string[]>();
    for (const [id, list] of all)
      if (list.length >= 2)
        texts.set(
          id,
          list.map((a) => a.reply_message),
        );
    return texts;
  }

  /**
   * Stores a regenerated reply of `entry` as its next alternative and chooses it (the
   * first time, the reply it had becomes alternative 0). @returns its index; "full" when the
   * entry has `max` alternatives already; "gone" when it was deleted meanwhile.
   */
  async addAlternative(
    entry: ChatHistoryRow,
    reply: { reply_message: string; reply_time: number; status: string },
    max: number,
  ): Promise<number | "full" | "gone"> {
    const index = await this.repo.addAlternative(entry.id, reply, max);
    this.windows?.delete(entry.session_id);
    return index;
  }

  /**
   * Chooses an entry's alternative `index`; its reply and audio become the entry's.
   * @returns the entry as it is now, undefined when it has no alternative `index`.
   */
  async chooseAlternative(entry: ChatHistoryRow, index: number): Promise<ChatHistoryRow | undefined> {
    const chosen = await this.repo.chooseAlternative(entry.id, index);
    if (!chosen) return undefined;
    this.windows?.delete(entry.session_id);
    return { ...entry, ...chosen, alternative_index: index, continue_count: 0 };
  }

  /** A continued reply is written into the entry's chosen alternative too, when it has some. */
  continueChosenAlternative(entry: ChatHistoryRow, reply: string): Promise<void> {
    return this.repo.continueChosenAlternative(entry.id, entry.alternative_index, reply);
  }

  /** Records the audio of an entry's chosen alternative (audio per alternative). */
  setAlternativeAudio(entryId: string, index: number, audioUrl: string): Promise<void> {
    return this.repo.setAlternativeAudio(entryId, index, audioUrl);
  }

  /**
   * Edit: replaces the user's message or the reply's text (the chosen alternative's
   * too; the reply's audio is dropped). @returns the entry as it is now.
   */
  async editEntry(
    entry: ChatHistoryRow,
    edit: { message: string } | { reply_message: string },
  ): Promise<ChatHistoryRow> {
    await this.repo.editEntry(entry, edit);
    this.windows?.delete(entry.session_id);
    return "message" in edit ? { ...entry, ...edit } : { ...entry, ...edit, reply_audio_url: "" };
  }

  /** Rewind: the entries of a session after `afterSeq`, oldest first. */
  entriesAfter(sessionId: string, afterSeq: number): Promise<ChatHistoryRow[]> {
    return this.repo.entriesAfter(sessionId, afterSeq);
  }

  /** Delete , "Rewind": removes entries of a session (with their alternatives). */
  async removeEntries(sessionId: string, entryIds: string[]): Promise<void> {
    await this.repo.deleteEntries(sessionId, entryIds);
    this.windows?.delete(sessionId);
  }

  /**
   * New chat (product.md §4): deletes the chat's history and summary; the greeting comes again on the
   * next load. @returns the chat. @throws as resolveChat.
   */
  async clear(user: User, chatId: string): Promise<ResolvedChat> {
    const chat = await this.resolveChat(user, chatId);
    const session = await this.session(user, chat);
    await this.repo.clearSession(session.id);
    this.forgetSession(session);
    this.windows?.delete(session.id);
    return chat;
  }

  /**
   * The prompt of `character`'s next reply (product.md §4): the chat's state (card, lorebook, summary,
   * the newest `historyLimit` exchanges after the summary, the other members' names, what the
   * character remembers, the sender's words) laid out by the prompt module
   * (server/modules/prompt/prompt.ts: stable part first, the turn's note last).
   * @param input.facts what the character remembers, given the user's last words and the chat
   *   session (its summary point splits settled facts from recent ones).
   * @param input.lastUserMessage replaces the newest exchange's user words (a photo's note).
   * @returns the messages, the stop strings, how many exchanges were read (`exchanges`), the
   *   exchanges read (`window`: order key and user's words, oldest first), how many of the
   *   newest of them the prompt carries (`kept`; old ones are dropped in chunks when the window
   *   is full) and how many stay after the next chunk drops (`keptAfterNextDrop`), and the key
   *   of the model's prompt cache for this chat and character (`cacheKey`).
   */
  async replyPrompt(input: {
    user: User;
    chat: ResolvedChat;
    session: ChatSession;
    character: Character;
    historyLimit: number;
    model: PromptModel;
    replyTokens: number;
    facts?: (lastUserMessage: string, session: ChatSession) => Promise<RememberedFacts>;
    lastUserMessage?: string;
    /** The sender's name, words about themself and local time for this reply (product.md §7 pname, ptext, time). */
    sender?: SenderContext;
    /**
     * Regenerate: the entry whose reply is written anew. The prompt ends with it as
     * it was before it was answered: its reply and every later entry are left out.
     */
    regenerating?: Pick<ChatHistoryRow, "id" | "seq">;
  }): Promise<{
    messages: ChatMessage[];
    stop: string[];
    others: string[];
    exchanges: number;
    window: Array<{ seq: number; message: string }>;
    kept: number;
    keptAfterNextDrop: number;
    cacheKey: string;
  }> {
    const { user, chat, session, character } = input;
    // The stable part names the user by the profile; `pname` is the turn note's (prompt.ts).
    const profileName = displayName(user);
    const userName = input.sender?.name || profileName;
    const others = chat.groupId ? chat.members.filter((m) => m.id !== character.id).map((m) => m.name) : [];
    const names = new Map(chat.members.map((m) => [m.id, m.name]));
    // A member that joined a group later knows only what was said since it joined
    // (seq is the send time in microseconds, server/modules/conversation/conversation.repo.ts).
    const since = (chat.memberSince?.get(character.id) ?? 0) * 1000;
    const read = await this.historyTexts(session, input.historyLimit);
    const anew = input.regenerating;
    const upTo = anew
      ? read.filter((h) => h.seq <= anew.seq).map((h) => (h.id === anew.id ? { ...h, reply_message: "" } : h))
      : read;
    const history = since > 0 ? upTo.filter((h) => h.seq >= since) : upTo;
    const lastWords = [...history].reverse().find((h) => h.message && h.message !== FIRST_MESSAGE_MARKER);
    const facts = input.facts ? await input.facts(lastWords?.message ?? "", session) : undefined;
    const userWords = (h: (typeof history)[number], index: number) =>
      input.lastUserMessage !== undefined && index === history.length - 1 ? input.lastUserMessage : h.message;
    const prompt = buildChatPrompt({
      character: {
        name: character.name,
        sex: character.sex,
        backstory: character.description,
        appearance: character.appearance,
        greeting: character.greeting,
        language: await this.repo.languageName(character.language_id),
      },
      userName: profileName,
      sender: input.sender,
      summary: session.summary,
      history: history.map((h, index) => ({
        userMessage: userWords(h, index),
        // A reply being continued is sent as the assistant's last, unfinished message.
        reply: h.reply_message,
        speaker: chat.groupId ? names.get(h.character_id) : undefined,
      })),
      contextWindow: input.model.contextWindow(),
      replyTokens: input.replyTokens,
      countTokens: (t) => input.model.countTokens(t),
      otherMembers: others,
      facts,
      uncensored: Boolean(user.uncensored),
      lorebook: storedLorebook(character.lorebook),
    });
    return {
      messages: prompt.messages,
      stop: stopStrings(userName, others, profileName),
      others,
      exchanges: history.length,
      window: history.map((h) => ({ seq: h.seq, message: h.message })),
      kept: prompt.kept,
      keptAfterNextDrop: prompt.keptAfterNextDrop,
      // One cache per chat and character: a group's members each have their own system prompt.
      cacheKey: `chat:${session.id}:${character.id}`,
    };
  }
}
