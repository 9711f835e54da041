// Short-lived per-process caches of per-user rows (seconds), each dropped by the code that writes its rows.
/**
 * Per-process caches of the rows every chat message reads (the bearer session, the
 * owned character, the chat session, the prompt window, the character's facts), each entry owned
 * by one user.
 *
 * The staleness rule (also in docs/benchmarks.md, "Third pass (per-process caches)"):
 * - an entry lives at most its cache's `ttlMs` (at most CACHE_TTL_MS, 5 s) and never past the
 *   `until` its owner gives (a token's expiry);
 * - a change made through this process is dropped at once by the service or repository that
 *   writes it, beside the write, and only what it changed: logout, a password change or a revoked
 *   device drop the user's sessions and any change of a user's row (profile, language, plan,
 *   limits, block, role, erasure) drops that user's sessions (AuthService.userChanged, called by
 *   the users, account, members, payments and admin services; an admin's plan edit drops every
 *   session); a character's update drops its cached row and its deletion (or a group's) its chat
 *   session too (CharactersService); New Chat, the greeting, an import and the memory jobs drop
 *   the chat's session (ChatsService), history changes other than an appended entry or a recorded
 *   reply drop the chat's prompt window (HistoryService), new or deleted facts drop the fact list
 *   (MemoryService). Nothing is dropped by HTTP method: a new writer of a cached row drops what
 *   it wrote, and a GET that writes says so in its route config (`writes`, server/http/route-writes.ts);
 * - a change made by another instance, a worker process or a direct database write is seen
 *   within `ttlMs` at the latest. So with several instances a revoked token, a block or
 *   a plan change takes effect everywhere within 5 s.
 * - a read that began before a drop does not store its (maybe older) row: take `epoch()` before
 *   the read and pass it to `set`.
 */

/** The longest any entry of these caches lives, milliseconds. */
export const CACHE_TTL_MS = 5_000;

interface Entry<V> {
  userId: string;
  value: V;
  /** Epoch ms after which the entry is not used. */
  until: number;
}

/**
 * A bounded map of per-user entries with a time to live; past the bound the oldest stored leave
 * first (no reordering on a read: every entry expires within seconds anyway).
 */
export class ShortCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private generation = 0;

  /**
   * @param options.ttlMs longest life of an entry, ms (at most CACHE_TTL_MS).
   * @param options.max most entries kept; the oldest stored go past it.
   * @param group the set the cache joins, so one call drops a user's entries in every cache.
   */
  constructor(
    private readonly options: { ttlMs: number; max: number },
    group?: CacheGroup,
  ) {
    if (options.ttlMs > CACHE_TTL_MS) throw new Error(`cache ttl above ${CACHE_TTL_MS} ms`);
    group?.add(this);
  }

  /** A number to take before reading what `set` will store (see the rule above). */
  epoch(): number {
    return this.generation;
  }

  /** The live entry of `key` at `now` (epoch ms), or undefined. */
  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now >= entry.until) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Stores `value` of `userId` under `key` from `now` for ttlMs, or until `until` when sooner.
   * Nothing is stored when something was dropped since `epoch` was taken.
   */
  set(key: string, userId: string, value: V, now: number, epoch: number, until = Number.POSITIVE_INFINITY) {
    if (epoch !== this.generation) return;
    this.entries.delete(key);
    if (this.entries.size >= this.options.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { userId, value, until: Math.min(now + this.options.ttlMs, until) });
  }

  /** Drops one entry. */
  delete(key: string): void {
    this.entries.delete(key);
    this.generation += 1;
  }

  /** Drops the entries whose value `match` picks. */
  deleteWhere(match: (value: V) => boolean): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (match(entry.value)) this.entries.delete(key);
  }

  /** Drops every entry of a user. */
  forgetUser(userId: string): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (entry.userId === userId) this.entries.delete(key);
  }

  /** Drops everything. */
  forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** How many entries are kept (tests). */
  get size(): number {
    return this.entries.size;
  }
}

/** What a cache gives its group: dropping a user's entries, or all of them. */
interface Forgettable {
  forgetUser(userId: string): void;
  forgetAll(): void;
}

/**
 * The caches of one process, built once in server/container.ts: each cache joins it, so tests that
 * write the database behind the app's back (and a restore) can drop every entry at once. The
 * writers drop their own rows through the cache that holds them, not through the group.
 */
export class CacheGroup implements Forgettable {
  private readonly caches: Forgettable[] = [];

  /** Adds a cache to the group (ShortCache's constructor does). */
  add(cache: Forgettable): void {
    this.caches.push(cache);
  }

  /** Drops a user's entries in every cache of the group. */
  forgetUser(userId: string): void {
    for (const cache of this.caches) cache.forgetUser(userId);
  }

  /** Drops every entry of every cache of the group. */
  forgetAll(): void {
    for (const cache of this.caches) cache.forgetAll();
  }
}
