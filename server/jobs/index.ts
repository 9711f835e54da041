// Choosing the job queue: BullMQ on Redis when REDIS_URL is set, else the in-process queue.
import type { RedisHandle } from "../providers/redis/redis";
import { BullMqJobQueue } from "./bullmq-queue";
import { MemoryJobQueue } from "./memory-queue";
import type { JobQueue } from "./queue";

export { type JobData, type JobOptions, type JobQueue, periodic } from "./queue";

/**
 * The job queue the configuration asks for: BullMQ on the cluster's Redis when
 * REDIS_URL is set (`redis` given), else the in-process queue of the embedded default.
 * @param log where failed tries and queue errors go.
 */
export function createJobQueue(redis: RedisHandle | undefined, log: (error: unknown) => void): JobQueue {
  return redis ? new BullMqJobQueue(redis, log) : new MemoryJobQueue(log);
}
