// The cluster's shared Redis: the command connection and further ones for pub/sub and job workers, every key under one prefix.
import type { Redis, RedisOptions } from "ioredis";
import { lazyModule } from "../../lazy-module";

/** ioredis, loaded when REDIS_URL is set and a connection opens, not at startup. */
const loadIoredis = lazyModule<typeof import("ioredis")>("ioredis");

/** Longest wait for a connection or a command before it fails, milliseconds. */
const REDIS_TIMEOUT_MS = 5000;

/**
 * The shared Redis of a cluster: one command connection for the process, and further
 * connections for what blocks or subscribes (pub/sub, the job queue's workers), all with the same
 * settings. Every key the server writes starts with `prefix` (REDIS_PREFIX), so deployments and
 * tests can share one server; ioredis's own `keyPrefix` is not used because BullMQ refuses it.
 */
export interface RedisHandle {
  /** Commands (auto-pipelined: commands of one tick leave in one write). */
  readonly client: Redis;
  /**
   * Commands of the rate limiter's counters (rate-limiter-flexible's script command), not
   * auto-pipelined: under load ioredis's auto-pipelining mixed their replies up, an uncaught
   * "results[i] is not iterable" (ioredis issue 1931). Same time limits as `client`.
   */
  readonly transactions: Redis;
  /** REDIS_PREFIX, e.g. "companion:". */
  readonly prefix: string;
  /**
   * A new connection with the same settings, closed by `close()`: for a subscriber (a connection
   * in subscribe mode takes no other commands) or a blocking reader.
   * @param purpose a short name shown in CLIENT LIST (e.g. "stop-bus").
   */
  connection(purpose: string): Redis;
  /** Answers PING (readiness). @throws Error when Redis does not answer. */
  ping(): Promise<void>;
  /** Closes every connection made here. */
  close(): Promise<void>;
}

/**
 * Connects to REDIS_URL. Commands sent while the connection is down are retried (ioredis's
 * offline queue) until `REDIS_TIMEOUT_MS`, then fail with an error, so a request never hangs.
 * @param url redis:// or rediss:// (TLS) URL, with password and database number when needed.
 * @param prefix REDIS_PREFIX.
 */
export function openRedis(url: string, prefix: string): RedisHandle {
  const ioredis = loadIoredis();
  const connections: Redis[] = [];
  const open = (purpose: string, extra: RedisOptions = {}) => {
    const redis = new ioredis.Redis(url, {
      connectionName: `companion-${purpose}`,
      connectTimeout: REDIS_TIMEOUT_MS,
      commandTimeout: REDIS_TIMEOUT_MS,
      ...extra,
    });
    // Errors reach the commands that fail; the connection retries by itself.
    redis.on("error", () => {});
    connections.push(redis);
    return redis;
  };
  const client = open("commands", { enableAutoPipelining: true });
  const transactions = open("transactions");
  return {
    client,
    transactions,
    prefix,
    // Subscribers and blocking readers wait longer than a command may take.
    connection: (purpose) => open(purpose, { commandTimeout: undefined, maxRetriesPerRequest: null }),
    async ping() {
      await client.ping();
    },
    async close() {
      await Promise.all(connections.splice(0).map((redis) => redis.quit().catch(() => redis.disconnect())));
    },
  };
}
