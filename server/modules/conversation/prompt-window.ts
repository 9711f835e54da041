// The prompt windows of chats: the newest exchanges each chat's next prompt reads, cached per process.
import type { ChatHistoryRow, ChatSession } from "../../db/schema";
import { CACHE_TTL_MS, type CacheGroup, ShortCache } from "../../db/short-cache";
import type { EntryPatch, HistoryRepo, HistoryText } from "./history.repo";

/** Most prompt windows kept by the per-process cache. */
const CACHED_WINDOWS_MAX = 10_000;
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
 * The prompt windows by session id, when caching (else every read goes to the database): the
 * history service appends the entries it stores and writes in the replies it records.
 */
export class PromptWindows {
  constructor(
    private readonly repo: HistoryRepo,
    private readonly now: () => number = Date.now,
    caches?: CacheGroup,
  ) {
    if (caches) this.windows = new ShortCache({ ttlMs: CACHE_TTL_MS, max: CACHED_WINDOWS_MAX }, caches);
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
  async read(session: ChatSession, limit: number): Promise<HistoryText[]> {
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
  append(entry: ChatHistoryRow): void {
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
  patch(entryId: string, patch: EntryPatch): void {
    if (patch.reply_message === undefined && patch.status === undefined) return;
    const sessionId = this.windowOfEntry.get(entryId);
    const window = sessionId === undefined ? undefined : this.windows?.get(sessionId, this.now());
    const row = window?.rows.find((r) => r.id === entryId);
    if (!row) return;
    if (patch.reply_message !== undefined) row.reply_message = patch.reply_message;
    if (patch.status !== undefined) row.status = patch.status;
  }

  /** Forgets a chat's cached window (its history changed other than by an appended entry). */
  drop(sessionId: string): void {
    this.windows?.delete(sessionId);
  }
}
