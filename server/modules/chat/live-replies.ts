// Live replies: a streamed reply's numbered events any instance can replay and follow, and the registry of running generations.
/**
 * Live replies ("replies that live in the cluster, not in one process"): the events of a
 * streamed reply (`entry`, `token`, `audio`, then `done` or `error`), numbered 1, 2, 3… per reply,
 * which any instance can replay after a given id and follow to the end; and the cluster-wide
 * registry of running generations (a lease per entry) that Stop, Continue and the settlement of
 * stalled replies ask. Two engines: in memory (one process, the default) and Redis
 * (live-replies.redis.ts, when REDIS_URL is set).
 */

/**
 * One event of a live reply: its sequence id (1, 2, 3… per reply), name and JSON data. The store
 * keeps and replays events as it was given them: the typed emitters of reply-stream.ts append only
 * those of common/stream-events.ts.
 */
export interface LiveEvent {
  seq: number;
  event: string;
  data: unknown;
}

/** The events that end a reply: nothing follows them. */
export const isTerminal = (event: string) => event === "done" || event === "error";

/** Most events kept per reply (older ones are dropped): a reply is LLM_MAX_TOKENS chunks or fewer. */
export const LIVE_EVENT_LIMIT = 5000;

/** How long a reply's events stay after its end, milliseconds (a reload a little later still resumes). */
export const ENDED_TTL_MS = 5 * 60_000;

/** How long a reply's events stay after its last event while it runs (its writer may have died). */
export const RUNNING_TTL_MS = 15 * 60_000;

/** What the registry keeps of a running generation, for the settlement of a stalled reply. */
export interface RunInfo {
  /** The user whose message it answers. */
  userId: string;
  /** The quota reservation it was charged ("plan:2026-11-23", see encodeReservation); "" when none. */
  charge: string;
}

/** A running generation's place in the registry, released when it ends. */
export interface Hold {
  /** Called when Stop is asked for this entry on any instance. */
  onStop(stop: () => void): void;
  /** Leaves the registry (idempotent). */
  release(): void;
}

/** Appends the events of one reply; `end` once the last one is appended. */
export interface LiveReplyWriter {
  /** Appends one event (buffered, sent within the tick). @returns its sequence id. */
  append(event: string, data: unknown): number;
  /** Ends the reply: its events expire ENDED_TTL_MS later (idempotent). */
  end(): void;
}

/** How following a live reply ended: its last event delivered, its writer gone, or closed here. */
export type FollowEnd = "end" | "lost" | "closed";

/** A follower of a live reply. */
export interface Following {
  /** Resolves when the following ends. */
  readonly ended: Promise<FollowEnd>;
  /** Stops following (idempotent). */
  close(): void;
}

/** What settling a stalled entry needs to know of it. */
export interface ReplyState {
  /** A generation holds its lease on some instance. */
  running: boolean;
  /** The registry or the event store has seen this entry (a generation of it started). */
  known: boolean;
  /** The charge recorded by its generation ("" when none or unknown). */
  charge: string;
  /** The reply text streamed so far (the tokens after the last `entry` event). */
  text: string;
}

/** Live replies and the registry of running generations, in memory or in Redis. */
export interface LiveReplies {
  readonly engine: "memory" | "redis";
  /**
   * Takes the lease of an entry for a generation, unless one runs already on any instance.
   * @returns undefined when the entry is already being generated.
   */
  claim(entryId: string, run: RunInfo): Promise<Hold | undefined>;
  /** Whether a generation of the entry runs on any instance. */
  isRunning(entryId: string): Promise<boolean>;
  /**
   * Stops the entry's generation wherever it runs (locally, or by a message to its instance).
   * @returns true when one runs anywhere.
   */
  stop(entryId: string): Promise<boolean>;
  /**
   * Opens the entry's live reply for writing, replacing an earlier one (a continuation goes on
   * numbering after the earlier reply's last id). Call it only after the entry's ownership is
   * checked. The lease is kept until the writer ends.
   * @param options.fresh the entry is new (no earlier reply to look for).
   */
  open(entryId: string, options: { fresh: boolean }): Promise<LiveReplyWriter>;
  /**
   * Replays the events after `after` and follows the reply to its end. An `after` beyond the
   * reply's last id (an id of an earlier reply of the entry) replays from the start.
   * @returns undefined when there is no live reply to follow: none, already ended at or before
   *   `after`, or its writer is gone.
   */
  follow(entryId: string, after: number, onEvent: (event: LiveEvent) => void): Promise<Following | undefined>;
  /** What the settlement of stalled replies needs to know of each entry. */
  inspect(entryIds: string[]): Promise<Map<string, ReplyState>>;
  /** Stops timers and followers (the Redis connections are closed with their handle). */
  close(): Promise<void>;
}

/** The reply text of a list of events: the `token` texts after the last `entry` event. */
export function streamedText(events: Iterable<{ event: string; data: unknown }>): string {
  let text = "";
  for (const { event, data } of events) {
    if (event === "entry") text = "";
    else if (event === "token") text += (data as { text?: unknown })?.text ?? "";
  }
  return text;
}

/** The generations held by this instance: a count per entry (a generation, a writer), its stop. */
export class LocalHolds {
  private readonly holds = new Map<string, { count: number; stop?: () => void; run?: RunInfo }>();

  has(entryId: string): boolean {
    return this.holds.has(entryId);
  }
  ids(): string[] {
    return [...this.holds.keys()];
  }
  run(entryId: string): RunInfo | undefined {
    return this.holds.get(entryId)?.run;
  }
  /** Calls the entry's stop. @returns false when the entry is not held here. */
  stop(entryId: string): boolean {
    const hold = this.holds.get(entryId);
    hold?.stop?.();
    return Boolean(hold);
  }
  /**
   * Adds one holder of the entry. @param onLast called when the last holder releases it.
   * @returns the holder's Hold.
   */
  add(entryId: string, run: RunInfo | undefined, onLast: () => void): Hold {
    const hold = this.holds.get(entryId) ?? { count: 0 };
    hold.count += 1;
    hold.run ??= run;
    this.holds.set(entryId, hold);
    let released = false;
    return {
      onStop: (stop) => {
        hold.stop = stop;
      },
      release: () => {
        if (released) return;
        released = true;
        hold.count -= 1;
        if (hold.count > 0) return;
        this.holds.delete(entryId);
        onLast();
      },
    };
  }
}

interface MemoryReply {
  events: LiveEvent[];
  last: number;
  ended: boolean;
  followers: Set<{ cursor: number; onEvent: (event: LiveEvent) => void; finish: (how: FollowEnd) => void }>;
  expiry?: NodeJS.Timeout;
}

/**
 * Most ended replies one process keeps for late followers (the oldest go first): at hundreds of
 * messages a second, ENDED_TTL_MS alone would keep tens of thousands of replies in memory.
 */
export const MEMORY_ENDED_LIMIT = 1000;

/** Live replies of one process (no REDIS_URL): Maps, and timers that forget ended replies. */
export class MemoryLiveReplies implements LiveReplies {
  readonly engine = "memory";
  private readonly holds = new LocalHolds();
  private readonly replies = new Map<string, MemoryReply>();
  /** Ended replies, oldest first. */
  private readonly ended = new Map<string, MemoryReply>();

  async claim(entryId: string, run: RunInfo): Promise<Hold | undefined> {
    if (this.holds.has(entryId)) return undefined;
    return this.holds.add(entryId, run, () => {});
  }

  async isRunning(entryId: string): Promise<boolean> {
    return this.holds.has(entryId);
  }

  async stop(entryId: string): Promise<boolean> {
    return this.holds.stop(entryId);
  }

  async open(entryId: string, options: { fresh: boolean }): Promise<LiveReplyWriter> {
    const earlier = this.replies.get(entryId);
    if (earlier) this.forget(entryId, earlier, "lost");
    const reply: MemoryReply = {
      events: [],
      last: options.fresh ? 0 : (earlier?.last ?? 0),
      ended: false,
      followers: new Set(),
    };
    this.replies.set(entryId, reply);
    const hold = this.holds.add(entryId, undefined, () => {});
    const end = () => {
      if (reply.ended) return;
      reply.ended = true;
      for (const follower of reply.followers) follower.finish("lost");
      reply.followers.clear();
      reply.expiry = setTimeout(() => this.forget(entryId, reply, "lost"), ENDED_TTL_MS);
      reply.expiry.unref();
      this.ended.delete(entryId);
      this.ended.set(entryId, reply);
      for (const [id, oldest] of this.ended) {
        if (this.ended.size <= MEMORY_ENDED_LIMIT) break;
        this.forget(id, oldest, "lost");
      }
      hold.release();
    };
    return {
      append: (event, data) => {
        if (reply.ended) return reply.last;
        const item = { seq: ++reply.last, event, data };
        reply.events.push(item);
        if (reply.events.length > LIVE_EVENT_LIMIT) reply.events.shift();
        for (const follower of reply.followers) {
          follower.cursor = item.seq;
          follower.onEvent(item);
          if (isTerminal(event)) follower.finish("end");
        }
        if (isTerminal(event)) {
          reply.followers.clear();
          end();
        }
        return item.seq;
      },
      end,
    };
  }

  async follow(
    entryId: string,
    after: number,
    onEvent: (event: LiveEvent) => void,
  ): Promise<Following | undefined> {
    const reply = this.replies.get(entryId);
    if (!reply) return undefined;
    const from = after > reply.last ? 0 : after;
    const terminal = reply.events.at(-1);
    if (reply.ended && (from >= reply.last || !terminal || !isTerminal(terminal.event))) return undefined;
    let finish: (how: FollowEnd) => void = () => {};
    const ended = new Promise<FollowEnd>((resolve) => {
      finish = resolve;
    });
    for (const item of reply.events) if (item.seq > from) onEvent(item);
    if (reply.ended) {
      finish("end");
      return { ended, close: () => {} };
    }
    const follower = { cursor: reply.last, onEvent, finish };
    reply.followers.add(follower);
    return {
      ended,
      close: () => {
        if (reply.followers.delete(follower)) finish("closed");
      },
    };
  }

  async inspect(entryIds: string[]): Promise<Map<string, ReplyState>> {
    const states = new Map<string, ReplyState>();
    for (const id of entryIds) {
      const reply = this.replies.get(id);
      states.set(id, {
        running: this.holds.has(id),
        known: this.holds.has(id) || Boolean(reply),
        charge: this.holds.run(id)?.charge ?? "",
        text: reply ? streamedText(reply.events) : "",
      });
    }
    return states;
  }

  async close(): Promise<void> {
    for (const [id, reply] of this.replies) this.forget(id, reply, "closed");
  }

  /** Drops a reply: its followers end with `how`. */
  private forget(entryId: string, reply: MemoryReply, how: FollowEnd): void {
    clearTimeout(reply.expiry);
    for (const follower of reply.followers) follower.finish(how);
    reply.followers.clear();
    if (this.replies.get(entryId) === reply) this.replies.delete(entryId);
    if (this.ended.get(entryId) === reply) this.ended.delete(entryId);
  }
}
