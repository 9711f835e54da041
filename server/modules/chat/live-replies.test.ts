import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { openRedis, type RedisHandle } from "../../providers/redis/redis";
import { TEST_REDIS_URL } from "../../testing/server";
import {
  type FollowEnd,
  type LiveEvent,
  type LiveReplies,
  MEMORY_ENDED_LIMIT,
  MemoryLiveReplies,
} from "./live-replies";
import { RedisLiveReplies } from "./live-replies.redis";

/** Resolves when `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Follows a reply on `live`, collecting its events. */
async function collect(live: LiveReplies, entryId: string, after: number) {
  const events: LiveEvent[] = [];
  const following = await live.follow(entryId, after, (event) => events.push(event));
  return { events, following, seqs: () => events.map((e) => e.seq) };
}

/**
 * Follows a reply once it can be followed (a writer's events reach Redis a tick after they are
 * appended), then waits for `count` events.
 */
async function follow(live: LiveReplies, entryId: string, after: number, count: number) {
  let result: Awaited<ReturnType<typeof collect>> | undefined;
  await until(async () => {
    result = await collect(live, entryId, after);
    return result.following !== undefined;
  });
  await until(() => result!.events.length >= count);
  return { ...result!, following: result!.following! };
}

/**
 * The contract of live replies, for two instances `a` (generating) and `b` (following,
 * stopping): on one process both are the same object; on Redis two objects on one server.
 */
function contract(name: string, make: () => Promise<{ a: LiveReplies; b: LiveReplies }>) {
  describe(name, () => {
    let a: LiveReplies;
    let b: LiveReplies;
    it("starts", async () => {
      ({ a, b } = await make());
    });

    it("numbers events 1, 2, 3…, replays after a Last-Event-ID and follows the reply to its end", async () => {
      const id = randomUUID();
      const hold = await a.claim(id, { userId: "u1", charge: "plan:2026-11-23" });
      expect(hold).toBeDefined();
      const writer = await a.open(id, { fresh: true });
      expect(writer.append("entry", { chatHistoryUUID: id })).toBe(1);
      expect(writer.append("token", { text: "Once " })).toBe(2);
      expect(writer.append("token", { text: "upon " })).toBe(3);
      // Another instance joins after event 2: it gets 3, then what comes, to the end.
      const follower = await follow(b, id, 2, 1);
      expect(follower.events[0]).toEqual({ seq: 3, event: "token", data: { text: "upon " } });
      expect(writer.append("token", { text: "a time" })).toBe(4);
      hold!.release();
      expect(writer.append("done", { success: 1, text: "Once upon a time" })).toBe(5);
      expect(await follower.following.ended).toBe<FollowEnd>("end");
      expect(follower.seqs()).toEqual([3, 4, 5]);
      expect(follower.events.at(-1)).toEqual({
        seq: 5,
        event: "done",
        data: { success: 1, text: "Once upon a time" },
      });
      // Appends after the end are ignored.
      expect(writer.append("token", { text: "more" })).toBe(5);
      // A late reader from the start gets everything; one that saw the end has nothing to follow.
      const late = await follow(b, id, 0, 5);
      expect(await late.following.ended).toBe("end");
      expect(late.seqs()).toEqual([1, 2, 3, 4, 5]);
      expect(await b.follow(id, 5, () => {})).toBeUndefined();
      // An id beyond the reply's last one (an earlier reply's) replays from the start.
      const stale = await follow(b, id, 57, 5);
      expect(stale.seqs()).toEqual([1, 2, 3, 4, 5]);
    });

    it("has no live reply for an entry never streamed", async () => {
      expect(await b.follow(randomUUID(), 0, () => {})).toBeUndefined();
    });

    it("numbers a continuation after the earlier reply's last id, and replays only it", async () => {
      const id = randomUUID();
      const first = await a.open(id, { fresh: true });
      first.append("entry", {});
      first.append("token", { text: "Hi" });
      first.append("done", {});
      expect((await follow(b, id, 0, 3)).seqs()).toEqual([1, 2, 3]);
      const again = await a.open(id, { fresh: false });
      expect(again.append("entry", { reply: "Hi" })).toBe(4);
      expect(again.append("token", { text: " there" })).toBe(5);
      const follower = await follow(b, id, 0, 2);
      expect(follower.seqs()).toEqual([4, 5]);
      again.append("done", {});
      expect(await follower.following.ended).toBe("end");
      expect(follower.seqs()).toEqual([4, 5, 6]);
    });

    it("takes one lease per entry across instances; Stop through b stops the generation on a", async () => {
      const id = randomUUID();
      const hold = await a.claim(id, { userId: "u1", charge: "" });
      expect(hold).toBeDefined();
      expect(await b.claim(id, { userId: "u1", charge: "" })).toBeUndefined();
      expect(await a.claim(id, { userId: "u1", charge: "" })).toBeUndefined();
      expect(await b.isRunning(id)).toBe(true);
      let stopped = 0;
      hold!.onStop(() => {
        stopped += 1;
      });
      expect(await b.stop(id)).toBe(true);
      await until(() => stopped === 1);
      hold!.release();
      await until(async () => !(await b.isRunning(id)));
      expect(await b.stop(id)).toBe(false);
      const next = await b.claim(id, { userId: "u1", charge: "" });
      expect(next).toBeDefined();
      next!.release();
    });

    it("tells the settlement what runs, what is known, the charge and the text streamed so far", async () => {
      const running = randomUUID();
      const streamed = randomUUID();
      const unknown = randomUUID();
      const hold = await a.claim(running, { userId: "u1", charge: "extra:2026-11" });
      const writer = await a.open(streamed, { fresh: true });
      writer.append("entry", {});
      writer.append("token", { text: "Half a " });
      writer.append("token", { text: "sentence" });
      await until(async () => (await b.inspect([streamed])).get(streamed)!.text !== "");
      const states = await b.inspect([running, streamed, unknown]);
      expect(states.get(running)).toMatchObject({ running: true, known: true, charge: "extra:2026-11" });
      expect(states.get(streamed)).toMatchObject({ known: true, text: "Half a sentence" });
      expect(states.get(unknown)).toEqual({ running: false, known: false, charge: "", text: "" });
      hold!.release();
      writer.end();
    });

    it("ends followers as lost when the writer ends without a last event", async () => {
      const id = randomUUID();
      const writer = await a.open(id, { fresh: true });
      writer.append("entry", {});
      const follower = await follow(b, id, 0, 1);
      writer.end();
      expect(await follower.following.ended).toBe("lost");
      expect(await b.follow(id, 0, () => {})).toBeUndefined();
    });

    it("closes a follower on request", async () => {
      const id = randomUUID();
      const writer = await a.open(id, { fresh: true });
      writer.append("entry", {});
      const follower = await follow(b, id, 0, 1);
      follower.following.close();
      expect(await follower.following.ended).toBe("closed");
      writer.end();
    });
  });
}

contract("live replies in memory (one process)", async () => {
  const live = new MemoryLiveReplies();
  return { a: live, b: live };
});

if (!TEST_REDIS_URL) {
  console.warn("SKIPPED live replies on Redis: TEST_REDIS_URL is not set (no Redis server given).");
}
describe.skipIf(!TEST_REDIS_URL)("live replies on Redis, two instances", () => {
  const prefix = `test:live:${randomUUID()}:`;
  const handles: RedisHandle[] = [];
  const instance = (leaseMs?: number) => {
    const handle = openRedis(TEST_REDIS_URL, prefix);
    handles.push(handle);
    return new RedisLiveReplies(handle, { leaseMs });
  };
  afterAll(async () => {
    const keys = await handles[0]?.client.keys(`${prefix}*`);
    if (keys?.length) await handles[0]!.client.del(...keys);
    await Promise.all(handles.map((handle) => handle.close()));
  });

  contract("the contract", async () => ({ a: instance(), b: instance() }));

  it("lets a lease expire when its instance stops refreshing it, and ends its followers as lost", async () => {
    const a = instance(300);
    const b = instance(300);
    const id = randomUUID();
    const hold = await a.claim(id, { userId: "u1", charge: "plan:2026-11-23" });
    const writer = await a.open(id, { fresh: true });
    writer.append("entry", {});
    writer.append("token", { text: "Half" });
    const follower = await follow(b, id, 0, 2);
    // Refreshed while a lives: still running after several lease lifetimes.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await b.isRunning(id)).toBe(true);
    // a dies (no more refreshes; nothing deleted).
    await a.close();
    expect(await follower.following.ended).toBe("lost");
    expect(await b.isRunning(id)).toBe(false);
    expect((await b.inspect([id])).get(id)).toEqual({
      running: false,
      known: true,
      charge: "plan:2026-11-23",
      text: "Half",
    });
    expect(hold).toBeDefined();
  });
});

it("keeps at most MEMORY_ENDED_LIMIT ended replies in one process, dropping the oldest", async () => {
  const live = new MemoryLiveReplies();
  const ids = Array.from({ length: MEMORY_ENDED_LIMIT + 5 }, () => randomUUID());
  for (const id of ids) {
    const writer = await live.open(id, { fresh: true });
    writer.append("entry", {});
    writer.append("done", {});
  }
  expect(await live.follow(ids[4]!, 0, () => {})).toBeUndefined();
  const kept = await collect(live, ids[5]!, 0);
  expect(kept.seqs()).toEqual([1, 2]);
  expect(await kept.following!.ended).toBe("end");
});
