// Live replies, Stop and the running generations on the cluster's Redis (streams, leases, one subscriber).
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { RedisHandle } from "../../providers/redis/redis";
import {
  ENDED_TTL_MS,
  type FollowEnd,
  type Following,
  type Hold,
  isTerminal,
  LIVE_EVENT_LIMIT,
  type LiveEvent,
  type LiveReplies,
  type LiveReplyWriter,
  LocalHolds,
  type ReplyState,
  RUNNING_TTL_MS,
  type RunInfo,
  streamedText,
} from "./live-replies";
import { type AppendCommand, defineAppend, eventOf, seqOf } from "./live-replies.redis-stream";

/** How long a generation's lease lives unless its instance refreshes it, milliseconds. */
export const LEASE_MS = 10_000;

/** How long the record of a generation (its user and charge) is kept for the settlement, seconds. */
const RUN_TTL_S = 24 * 3600;

/** Most events read by one XRANGE. */
const READ_BATCH = 1000;

interface Follower {
  cursor: number;
  onEvent: (event: LiveEvent) => void;
  finish: (how: FollowEnd) => void;
}

/** The followers of one reply on this instance: one subscription and one reader for them all. */
interface FollowGroup {
  followers: Set<Follower>;
  /** The subscription to the reply's notifications. */
  subscribed: Promise<unknown>;
  /** A read queued behind the running one (notifications coalesce into it). */
  queued?: Promise<void>;
  /** The last read started. */
  tail: Promise<void>;
  /** The highest event id read so far. */
  last: number;
}

/**
 * Live replies on the cluster's Redis. Keys under the handle's prefix `p`:
 * - `p` + `live:<entry>`: a Stream of the reply's events, ids `0-<seq>`, MAXLEN ~LIVE_EVENT_LIMIT,
 *   expiring RUNNING_TTL_MS after its last event while it runs and ENDED_TTL_MS after its end;
 * - `p` + `live:<entry>:lease`: the generation's lease (this instance's id), LEASE_MS, refreshed
 *   every LEASE_MS / 3 by the instance that holds it, taken with NX (one generation per entry);
 * - `p` + `live:<entry>:run`: the generation's user and charge (JSON), for the settlement.
 * Channels: `p` + `live:<entry>` announces new events (one PUBLISH per tick); `p` + `live-stop`
 * carries Stop to the instance that holds the lease. Each instance has ONE subscriber connection
 * for both; followers read with XRANGE from their last id when told (one read per reply for
 * all its followers on the instance), so an open stream costs no connection of its own.
 */
export class RedisLiveReplies implements LiveReplies {
  readonly engine = "redis";
  private readonly instance = randomUUID();
  private readonly client: Redis;
  private readonly subscriber: Redis;
  private readonly prefix: string;
  private readonly stopChannel: string;
  private readonly holds = new LocalHolds();
  private readonly groups = new Map<string, FollowGroup>();
  private readonly leaseMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly timer: NodeJS.Timeout;
  /** APPEND_SCRIPT, as defined on the command connection. */
  private readonly appendEvents: AppendCommand;
  private closed = false;

  /**
   * @param redis the shared Redis (its command connection, and one new subscriber connection).
   * @param options.leaseMs lease lifetime (tests shorten it); @param options.onError logs a failed
   *   background write or read (a request's own commands throw to it instead).
   */
  constructor(redis: RedisHandle, options: { leaseMs?: number; onError?: (error: unknown) => void } = {}) {
    this.client = redis.client;
    this.appendEvents = defineAppend(this.client);
    this.prefix = `${redis.prefix}live:`;
    this.stopChannel = `${redis.prefix}live-stop`;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.onError = options.onError ?? (() => {});
    this.subscriber = redis.connection("live-replies");
    this.subscriber.on("message", (channel: string, message: string) => this.notified(channel, message));
    let connected = false;
    this.subscriber.on("ready", () => {
      // After a reconnection notifications may have been missed: read every followed reply.
      if (connected) for (const entryId of this.groups.keys()) void this.read(entryId);
      connected = true;
    });
    this.subscriber.subscribe(this.stopChannel).catch(this.onError);
    // Made now, not on first use: a stream's test counts the intervals made while it runs.
    this.timer = setInterval(() => void this.tick(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
    this.client.once("end", () => void this.close());
  }

  private key(entryId: string, suffix = ""): string {
    return `${this.prefix}${entryId}${suffix}`;
  }

  async claim(entryId: string, run: RunInfo): Promise<Hold | undefined> {
    if (this.holds.has(entryId)) return undefined;
    const taken = await this.client.set(this.key(entryId, ":lease"), this.instance, "PX", this.leaseMs, "NX");
    if (taken !== "OK" || this.holds.has(entryId)) return undefined;
    this.client.set(this.key(entryId, ":run"), JSON.stringify(run), "EX", RUN_TTL_S).catch(this.onError);
    return this.holds.add(entryId, run, () => this.release(entryId));
  }

  async isRunning(entryId: string): Promise<boolean> {
    return this.holds.has(entryId) || (await this.client.exists(this.key(entryId, ":lease"))) === 1;
  }

  async stop(entryId: string): Promise<boolean> {
    if (this.holds.stop(entryId)) return true;
    if ((await this.client.exists(this.key(entryId, ":lease"))) !== 1) return false;
    await this.client.publish(this.stopChannel, entryId);
    return true;
  }

  async open(entryId: string, options: { fresh: boolean }): Promise<LiveReplyWriter> {
    const key = this.key(entryId);
    let last = 0;
    if (!options.fresh) {
      const [newest] = (await this.client.xrevrange(key, "+", "-", "COUNT", 1)) as Array<[string, string[]]>;
      last = newest ? seqOf(newest[0]) : 0;
      await this.client.del(key);
    }
    const hold = this.holds.has(entryId)
      ? this.holds.add(entryId, undefined, () => this.release(entryId))
      : await this.retake(entryId);
    let buffer: Array<[number, string, string]> = [];
    let ended = false;
    let released = false;
    let scheduled = false;
    // One tick's events leave together with their expiry and one notification, in one command.
    const flush = () => {
      scheduled = false;
      const args: Array<string | number> = [
        LIVE_EVENT_LIMIT,
        ended ? ENDED_TTL_MS : RUNNING_TTL_MS,
        ended ? `${last}:end` : String(last),
      ];
      for (const [seq, event, data] of buffer) args.push(`0-${seq}`, event, data);
      buffer = [];
      this.appendEvents(key, ...args).catch(this.onError);
      if (ended && !released) {
        released = true;
        hold.release();
      }
    };
    const schedule = () => {
      if (scheduled) return;
      scheduled = true;
      process.nextTick(flush);
    };
    return {
      append: (event, data) => {
        if (ended) return last;
        last += 1;
        buffer.push([last, event, JSON.stringify(data ?? null)]);
        if (isTerminal(event)) ended = true;
        schedule();
        return last;
      },
      end: () => {
        if (ended) return;
        ended = true;
        schedule();
      },
    };
  }

  /** A writer's hold when no generation of this instance holds the entry (sets the lease). */
  private async retake(entryId: string): Promise<Hold> {
    await this.client.set(this.key(entryId, ":lease"), this.instance, "PX", this.leaseMs);
    return this.holds.add(entryId, undefined, () => this.release(entryId));
  }

  /** The last holder here let go: the lease and the run record go. */
  private release(entryId: string): void {
    this.client.del(this.key(entryId, ":lease"), this.key(entryId, ":run")).catch(this.onError);
  }

  async follow(
    entryId: string,
    after: number,
    onEvent: (event: LiveEvent) => void,
  ): Promise<Following | undefined> {
    const channel = this.key(entryId);
    let group = this.groups.get(entryId);
    if (!group) {
      group = {
        followers: new Set(),
        subscribed: this.subscriber.subscribe(channel),
        tail: Promise.resolve(),
        last: 0,
      };
      this.groups.set(entryId, group);
    }
    let resolve: (how: FollowEnd) => void = () => {};
    const ended = new Promise<FollowEnd>((done) => {
      resolve = done;
    });
    const leave = () => {
      if (!group.followers.delete(follower)) return false;
      if (group.followers.size === 0 && this.groups.get(entryId) === group) {
        this.groups.delete(entryId);
        this.subscriber.unsubscribe(channel).catch(this.onError);
      }
      return true;
    };
    const follower: Follower = {
      cursor: after,
      onEvent,
      finish: (how) => {
        if (leave()) resolve(how);
      },
    };
    // Registered before anything is read: a notification from now on reaches it.
    group.followers.add(follower);
    try {
      await group.subscribed;
      // The lease first: when it is gone, the writer's last events are already in the stream.
      const [lease, newest] = await Promise.all([
        this.client.exists(this.key(entryId, ":lease")),
        this.client.xrevrange(channel, "+", "-", "COUNT", 1) as Promise<Array<[string, string[]]>>,
      ]);
      const last = newest[0] ? eventOf(newest[0]) : undefined;
      if (after > (last?.seq ?? 0)) follower.cursor = 0;
      const over = last && isTerminal(last.event);
      if (!last || (over && follower.cursor >= last.seq) || (!over && lease !== 1)) {
        leave();
        return undefined;
      }
    } catch (error) {
      leave();
      throw error;
    }
    void this.read(entryId);
    return { ended, close: () => follower.finish("closed") };
  }

  /** Reads the reply's new events for its followers here; reads requested meanwhile coalesce. */
  private read(entryId: string): Promise<void> {
    const group = this.groups.get(entryId);
    if (!group) return Promise.resolve();
    if (group.queued) return group.queued;
    const queued = group.tail.then(async () => {
      group.queued = undefined;
      await this.readNow(entryId, group);
    });
    group.queued = queued;
    group.tail = queued.catch(this.onError);
    return queued;
  }

  private async readNow(entryId: string, group: FollowGroup): Promise<void> {
    for (;;) {
      if (group.followers.size === 0) return;
      const from = Math.min(...[...group.followers].map((f) => f.cursor));
      const rows = (await this.client.xrange(
        this.key(entryId),
        `0-${from + 1}`,
        "+",
        "COUNT",
        READ_BATCH,
      )) as Array<[string, string[]]>;
      for (const row of rows) {
        const item = eventOf(row);
        group.last = Math.max(group.last, item.seq);
        for (const follower of group.followers) {
          if (item.seq <= follower.cursor) continue;
          follower.cursor = item.seq;
          follower.onEvent(item);
          if (isTerminal(item.event)) follower.finish("end");
        }
      }
      if (rows.length < READ_BATCH) return;
    }
  }

  /** A message on the subscriber: a Stop, or a reply's new events ("<last id>", ":end" at its end). */
  private notified(channel: string, message: string): void {
    if (channel === this.stopChannel) {
      this.holds.stop(message);
      return;
    }
    if (!channel.startsWith(this.prefix)) return;
    const entryId = channel.slice(this.prefix.length);
    const read = this.read(entryId);
    // The writer ended: followers still waiting after reading everything wait for nothing.
    if (message.endsWith(":end")) {
      const last = Number.parseInt(message, 10);
      void read.then(() => this.lose(entryId, last), this.onError);
    }
  }

  /**
   * Ends the followers here that have every event up to `last` as lost: the reply ended, or its
   * writer died, without a last event. Followers not yet served are left to their own read.
   */
  private lose(entryId: string, last: number): void {
    for (const follower of this.groups.get(entryId)?.followers ?? []) {
      if (follower.cursor >= last) follower.finish("lost");
    }
  }

  /**
   * Every LEASE_MS / 3: refreshes the leases held here, and ends the followers of replies whose
   * lease is gone without a last event (their instance died) after one last read.
   */
  private async tick(): Promise<void> {
    if (this.closed) return;
    for (const entryId of this.holds.ids()) {
      this.client.set(this.key(entryId, ":lease"), this.instance, "PX", this.leaseMs).catch(this.onError);
    }
    const followed = [...this.groups.keys()];
    if (followed.length === 0) return;
    try {
      const leases = await Promise.all(followed.map((id) => this.client.exists(this.key(id, ":lease"))));
      for (const [index, entryId] of followed.entries()) {
        if (leases[index] === 1) continue;
        await this.read(entryId);
        this.lose(entryId, this.groups.get(entryId)?.last ?? 0);
      }
    } catch (error) {
      this.onError(error);
    }
  }

  async inspect(entryIds: string[]): Promise<Map<string, ReplyState>> {
    const rows = await Promise.all(
      entryIds.map((id) =>
        Promise.all([
          this.client.exists(this.key(id, ":lease")),
          this.client.get(this.key(id, ":run")),
          this.client.xrange(this.key(id), "-", "+") as Promise<Array<[string, string[]]>>,
        ]),
      ),
    );
    const states = new Map<string, ReplyState>();
    for (const [index, [lease, run, events]] of rows.entries()) {
      const id = entryIds[index]!;
      const charge = run ? String((JSON.parse(run) as Partial<RunInfo>).charge ?? "") : "";
      states.set(id, {
        running: lease === 1 || this.holds.has(id),
        known: Boolean(run) || events.length > 0,
        charge,
        text: streamedText(events.map(eventOf)),
      });
    }
    return states;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const group of [...this.groups.values()]) {
      for (const follower of [...group.followers]) follower.finish("closed");
    }
    // The leases held here are not deleted: they expire, and the settlement takes over.
    this.subscriber.disconnect();
  }
}
