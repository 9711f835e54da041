import { afterEach, describe, expect, it } from "vitest";
import { openRedis, type RedisHandle } from "../providers/redis/redis";
import { waitFor } from "../testing/processes";
import { hasRedisServer, type RedisProcess, startRedisProcess } from "../testing/redis-process";
import { BullMqJobQueue } from "./bullmq-queue";
import { periodic } from "./queue";

/**
 * The shared engine when Redis restarts without its data (no AOF, no snapshot): the test runs its
 * own `redis-server` on a free port, never the shared one of TEST_REDIS_URL, which other tests use.
 */
const redisServerInstalled = hasRedisServer();
if (!redisServerInstalled) console.warn("SKIPPED the Redis restart tests: redis-server is not installed");

/** The schedule's interval in these tests, milliseconds. */
const PERIOD_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!redisServerInstalled)("BullMQ job queue when Redis restarts without its data", () => {
  const handles: RedisHandle[] = [];
  const queues: BullMqJobQueue[] = [];
  const errors: unknown[] = [];
  let server: RedisProcess | undefined;

  /** One "instance" of the cluster: its own connections to the test's redis-server. */
  function instance(url: string): BullMqJobQueue {
    const redis = openRedis(url, "test:");
    handles.push(redis);
    const queue = new BullMqJobQueue(redis, (error) => errors.push(error));
    queues.push(queue);
    return queue;
  }

  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.close();
    for (const handle of handles.splice(0)) await handle.close();
    await server?.close();
    server = undefined;
    errors.length = 0;
  });

  it("declares the schedules again and keeps working, one run per interval across instances", async () => {
    server = await startRedisProcess();
    const [a, b] = [instance(server.url), instance(server.url)];
    const runs: number[] = [];
    const done: string[] = [];
    for (const queue of [a, b]) {
      periodic(queue, "tick", PERIOD_MS, async () => void runs.push(Date.now()));
      queue.define<{ id: string }>("work", async ({ id }) => void done.push(id));
    }
    const started = Date.now();
    const explain = () =>
      `runs at ${runs.map((t) => t - started).join(", ")} ms; errors: ${errors.map(String).join("; ")}`;
    await a.start();
    await b.start();
    await waitFor(() => (runs.length >= 2 ? true : undefined), 4 * PERIOD_MS, explain);

    // Redis dies and comes back on the same port with nothing: no scheduler, no queued tick.
    await server.restartEmpty();
    const restarted = Date.now();

    // The schedule comes back by itself (no instance restarts), within a few intervals.
    await waitFor(() => (runs.some((t) => t > restarted) ? true : undefined), 5 * PERIOD_MS, explain);
    // BullMQ's meta hash (its version) is back too.
    expect(await handles[0]!.client.hget("test:jobs:background:meta", "version")).toMatch(/^bullmq:/);
    // The workers are not stuck either: a job queued now runs.
    await a.enqueue("work", { id: "after-restart" });
    await waitFor(() => (done.includes("after-restart") ? true : undefined), 5000, explain);

    // Both instances declared it again, yet it still runs once per interval for the cluster.
    const from = runs.findIndex((t) => t > restarted);
    await sleep(3 * PERIOD_MS);
    const after = runs.slice(from);
    const window = Date.now() - after[0]!;
    expect(after.length, explain()).toBeGreaterThanOrEqual(2);
    expect(after.length, explain()).toBeLessThanOrEqual(2 + Math.ceil(window / PERIOD_MS));
    for (let i = 1; i < after.length; i++)
      expect(after[i]! - after[i - 1]!, explain()).toBeGreaterThan(PERIOD_MS / 2);
  });

  it("a worker whose running job was lost with the data keeps claiming jobs", async () => {
    server = await startRedisProcess();
    const queue = instance(server.url);
    const begun: string[] = [];
    const done: string[] = [];
    queue.define<{ id: string }>("slow", async ({ id }) => {
      begun.push(id);
      await sleep(1500);
      done.push(id);
    });
    await queue.start();
    const explain = () => `begun ${begun}, done ${done}; errors: ${errors.map(String).join("; ")}`;
    await queue.enqueue("slow", { id: "before" });
    await waitFor(() => (begun.includes("before") ? true : undefined), 5000, explain);

    // Running while Redis restarts empty: its lock and its record are gone.
    await server.restartEmpty();
    await queue.enqueue("slow", { id: "after" });
    await waitFor(() => (done.includes("after") ? true : undefined), 10_000, explain);
    // The lost job finished its work, but could not be recorded: logged, not retried.
    expect(done).toEqual(["before", "after"]);
    expect(begun).toEqual(["before", "after"]);
    expect(
      errors.some((error) => /Missing lock for job/.test(String(error))),
      explain(),
    ).toBe(true);
  });
});
