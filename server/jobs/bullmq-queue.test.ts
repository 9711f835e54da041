import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { openRedis, type RedisHandle } from "../providers/redis/redis";
import { BullMqJobQueue } from "./bullmq-queue";
import { periodic } from "./queue";

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "";
if (!TEST_REDIS_URL) console.warn("Skipping the BullMQ job queue tests: set TEST_REDIS_URL");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!TEST_REDIS_URL)("BullMQ job queue on Redis, two instances", () => {
  const handles: RedisHandle[] = [];
  const queues: BullMqJobQueue[] = [];
  const errors: unknown[] = [];
  let prefix = "";

  /** One "instance": its own Redis connections, the same prefix as the others of the test. */
  function instance(): BullMqJobQueue {
    const redis = openRedis(TEST_REDIS_URL, prefix);
    handles.push(redis);
    const queue = new BullMqJobQueue(redis, (error) => errors.push(error), { concurrency: 2 });
    queues.push(queue);
    return queue;
  }
  const fresh = () => {
    prefix = `test:jobs-${randomUUID().slice(0, 8)}:`;
  };

  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.close();
    const redis = handles[0];
    if (redis) {
      for await (const keys of redis.client.scanStream({ match: `${prefix}*`, count: 500 })) {
        if ((keys as string[]).length > 0) await redis.client.del(...(keys as string[]));
      }
    }
    for (const handle of handles.splice(0)) await handle.close();
    errors.length = 0;
  });

  it("runs each job queued once exactly once across both instances, keys de-duplicated", async () => {
    fresh();
    const [a, b] = [instance(), instance()];
    const runs = new Map<string, number>();
    const where = new Set<string>();
    for (const [name, queue] of [
      ["a", a],
      ["b", b],
    ] as const) {
      queue.define<{ id: string }>("work", async ({ id }) => {
        runs.set(id, (runs.get(id) ?? 0) + 1);
        where.add(name);
        await sleep(5);
      });
    }
    // Queued before any worker runs: both instances compete for them.
    for (let i = 0; i < 30; i++) await (i % 2 ? a : b).enqueue("work", { id: `job-${i}` });
    // The same key while the first still waits: dropped, from either instance.
    await a.enqueue("work", { id: "keyed-1" }, { key: "k" });
    await b.enqueue("work", { id: "keyed-2" }, { key: "k" });
    expect(await a.depth()).toBe(31);
    await Promise.all([a.start(), b.start()]);
    await Promise.all([a.idle(), b.idle()]);
    expect(runs.size).toBe(31);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(runs.has("keyed-2")).toBe(false);
    expect(where).toEqual(new Set(["a", "b"]));
    expect(await b.depth()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("runs a scheduled job once per interval across both instances, the first at once", async () => {
    fresh();
    const [a, b] = [instance(), instance()];
    const runs: number[] = [];
    for (const queue of [a, b]) periodic(queue, "tick", 300, async () => void runs.push(Date.now()));
    await a.start();
    await b.start();
    const ready = Date.now();
    await sleep(1400);
    const window = Date.now() - ready;
    // The first run at once (the tick is made with the schedule), then one per 300 ms slot:
    // about 1 + window / 300, where each instance on its own would make as many again.
    expect(runs[0]! - ready).toBeLessThan(250);
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBeLessThanOrEqual(2 + Math.ceil(window / 300));
    for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBeGreaterThan(150);
    // The next tick waiting for its slot is not work: idle() does not wait for it.
    await a.idle();
    expect(errors).toEqual([]);
  });

  it("retries a failing job with exponential back-off on any instance, then gives it up", async () => {
    fresh();
    const [a, b] = [instance(), instance()];
    const tries: number[] = [];
    for (const queue of [a, b]) {
      queue.define(
        "flaky",
        async () => {
          tries.push(Date.now());
          throw new Error("mail server down");
        },
        { attempts: 3, backoffMs: 150 },
      );
    }
    await Promise.all([a.start(), b.start()]);
    await a.enqueue("flaky", {});
    await sleep(50);
    expect(await b.depth()).toBe(1); // the retry, delayed
    await b.idle();
    expect(tries).toHaveLength(3);
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(140);
    expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(290);
    expect(errors.map((e) => (e as Error).message)).toEqual([
      'job "flaky" failed (try 1 of 3): mail server down',
      'job "flaky" failed (try 2 of 3): mail server down',
      'job "flaky" failed (try 3 of 3): mail server down',
    ]);
    await sleep(300);
    expect(tries).toHaveLength(3);
  });

  it("stop() waits for the running job and leaves the rest queued for another instance", async () => {
    fresh();
    const [a, b] = [instance(), instance()];
    const done: string[] = [];
    for (const [name, queue] of [
      ["a", a],
      ["b", b],
    ] as const) {
      queue.define<{ id: string }>("slow", async ({ id }) => {
        await sleep(150);
        done.push(`${id}@${name}`);
      });
    }
    await a.start();
    await a.enqueue("slow", { id: "1" });
    await a.enqueue("slow", { id: "2" });
    await a.enqueue("slow", { id: "3" });
    await sleep(50);
    await a.stop();
    // a finished what it had claimed (concurrency 2) and claimed nothing after.
    expect(done.sort()).toEqual(["1@a", "2@a"]);
    await b.start();
    await b.idle();
    expect(done.sort()).toEqual(["1@a", "2@a", "3@b"]);
  });

  it("idle() waits for a job this instance is still sending to Redis", async () => {
    fresh();
    const a = instance();
    let ran = false;
    a.define("quick", async () => {
      ran = true;
    });
    await a.start();
    void a.enqueue("quick", {});
    await a.idle();
    expect(ran).toBe(true);
  });

  it("removes a schedule the code no longer declares", async () => {
    fresh();
    const old = instance();
    periodic(old, "retired", 60_000, async () => {});
    await old.start();
    await old.close();
    const next = instance();
    periodic(next, "kept", 60_000, async () => {});
    await next.start();
    const redis = handles[0]!;
    const schedulers = await redis.client.zrange(`${prefix}jobs:background:repeat`, "0", "-1");
    expect(schedulers).toEqual(["kept"]);
  });
});
