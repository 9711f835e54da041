// The chats of a user: which chat an id names (a character or a group), its members, ownership and its session.
import { REPLY_SWIPES_MAX } from "../../../common/constants";
import type { Character, ChatHistoryRow, ChatSession, User } from "../../db/schema";
import { CACHE_TTL_MS, type CacheGroup, ShortCache } from "../../db/short-cache";
import { AppError, notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import type { ChatsRepo } from "./chats.repo";

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

/** A session's last-use time is recorded at most this often per chat, milliseconds. */
export const SESSION_TOUCH_MS = 60_000;
/** Users whose last touched session is remembered; the map starts afresh past this. */
const LAST_TOUCHED_MAX = 10_000;
/** Most characters and chat sessions kept by the per-process caches. */
const CACHED_ROWS_MAX = 10_000;

/**
 * A card's alternate greetings as stored (characters.alternate_greetings, a JSON array of
 * strings): the non-blank strings, at most REPLY_SWIPES_MAX - 1 (the first message
 * is the first swipe). Anything unreadable counts as none.
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
    .slice(0, REPLY_SWIPES_MAX - 1);
}

/** How characters address the user: the full name, else the user name. */
export function displayName(user: User): string {
  return user.full_name.trim() || user.user_name.trim() || "friend";
}

/**
 * The chats (product.md §4, 7 "Chat"): which chat an id names for a user, its members and its
 * session. Chat, pictures, voice and memory all resolve a chat through this service; every id
 * from the client is checked against the signed-in user before anything is read or written.
 */
export class ChatsService {
  constructor(
    private readonly repo: ChatsRepo,
    private readonly now: () => number = Date.now,
    /**
     * Where the per-process caches of the user's characters and chat sessions join (two reads less
     * per message). How stale they may be is the rule of server/db/short-cache.ts: a few seconds at
     * most, dropped at once by the writers of those rows (`forgetSession`, `sessionChanged`,
     * `characterChanged`, `chatRemoved`); without it nothing is cached.
     */
    caches?: CacheGroup,
  ) {
    if (caches) {
      this.characters = new ShortCache({ ttlMs: CACHE_TTL_MS, max: CACHED_ROWS_MAX }, caches);
      this.sessions = new ShortCache({ ttlMs: CACHE_TTL_MS, max: CACHED_ROWS_MAX }, caches);
    }
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
  async ensureSession(userId: string, chatKey: string, isGroup: boolean, now: number): Promise<ChatSession> {
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

  /** Drops a session from the cache (its row changed in this process: greeted, cleared). */
  forgetSession(session: ChatSession): void {
    this.sessions?.delete(`${session.user_id} ${session.chat_key}`);
  }

  /** Drops a character of the user from the cache after its row was updated in this process. */
  characterChanged(userId: string, characterId: string): void {
    this.characters?.delete(`${userId} ${characterId}`);
  }

  /**
   * Drops a chat of the user from the caches after it was deleted in this process (a character or
   * a group, with its session): its character, if any, and its session.
   */
  chatRemoved(userId: string, chatKey: string): void {
    this.characters?.delete(`${userId} ${chatKey}`);
    this.sessions?.delete(`${userId} ${chatKey}`);
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
      if (id) throw notFound(msg("conversation.chatNotFound"));
    }
    const first = await this.repo.firstCharacter(user.id);
    if (!first) throw new AppError("no_character", msg("conversation.chooseCharacterFirst"));
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
  /**
   * Whether a message should record the session's last-use time (the chat opened when none is
   * named): when it is older than SESSION_TOUCH_MS, or another chat of the user was touched by
   * this process since (not a write per message).
   */
  touchDue(userId: string, session: ChatSession, now: number): boolean {
    if (now - session.updated_at < SESSION_TOUCH_MS && this.lastTouched.get(userId) === session.id)
      return false;
    if (this.lastTouched.size >= LAST_TOUCHED_MAX) this.lastTouched.clear();
    this.lastTouched.set(userId, session.id);
    return true;
  }

  /** User id → the session this process last recorded a use of (bounded by LAST_TOUCHED_MAX). */
  private readonly lastTouched = new Map<string, string>();

  /** Records the session's last-use time (epoch ms) in its row and in the cached session. */
  async recordUse(session: ChatSession, now: number): Promise<void> {
    await this.repo.touchSession(session.id, now);
    session.updated_at = now;
  }

  /** The language's display name (the reply language of the prompt). */
  languageName(languageId: string): Promise<string> {
    return this.repo.languageName(languageId);
  }
}
