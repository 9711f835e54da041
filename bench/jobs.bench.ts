import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { createJobQueue, type JobQueue } from "../server/jobs/index";
import { openRedis } from "../server/providers/redis/redis";

/**
 * Job queue throughput, run by `npm run bench`: JOBS no-op jobs are
 * queued, then one worker process (this one, BullMQ's default concurrency of 1 per process, as the
 * server runs it) drains them. Prints jobs queued per second and jobs run per second, for the
 * in-process queue and, when Redis answers (BENCH_REDIS_URL, TEST_REDIS_URL or 127.0.0.1:6379),
 * for BullMQ on Redis. The handler does nothing, so this is the queue's own cost per job.
 */

const JOBS = Number(process.env.BENCH_JOBS ?? 5000);

async function measure(label: string, queue: JobQueue): Promise<void> {
  let ran = 0;
  queue.define("bench.noop", async () => {
    ran += 1;
  });
  const queuedAt = performance.now();
  await Promise.all(Array.from({ length: JOBS }, (_unused, i) => queue.enqueue("bench.noop", { i })));
  const queueMs = performance.now() - queuedAt;
  const startedAt = performance.now();
  await queue.start();
  await queue.idle();
  const runMs = performance.now() - startedAt;
  await queue.stop();
  if (ran !== JOBS) throw new Error(`${label}: ${ran} of ${JOBS} jobs ran`);
  console.log(
    `${label.padEnd(18)} | ${((JOBS * 1000) / queueMs).toFixed(0).padStart(13)} | ${((JOBS * 1000) / runMs).toFixed(0).padStart(10)}`,
  );
}

async function redisUrl(): Promise<string | undefined> {
  const url = process.env.BENCH_REDIS_URL || process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  probe.on("error", () => {});
  try {
    await probe.connect();
    await probe.ping();
    return url;
  } catch {
    return undefined;
  } finally {
    probe.disconnect();
  }
}

console.log(`\nJob queue: ${JOBS} no-op jobs queued, then run by one worker`);
console.log("engine             | queued jobs/s | run jobs/s");
await measure(
  "in-process",
  createJobQueue(undefined, (error) => console.error(error)),
);
const url = await redisUrl();
if (!url) {
  console.log("BullMQ on Redis: skipped (no Redis answers; set BENCH_REDIS_URL)");
} else {
  const prefix = `bench:${randomUUID().slice(0, 8)}:`;
  const redis = openRedis(url, prefix);
  try {
    await measure(
      "BullMQ on Redis",
      createJobQueue(redis, (error) => console.error(error)),
    );
  } finally {
    for await (const keys of redis.client.scanStream({ match: `${prefix}*`, count: 500 })) {
      if ((keys as string[]).length > 0) await redis.client.del(...(keys as string[]));
    }
    await redis.close();
  }
}
