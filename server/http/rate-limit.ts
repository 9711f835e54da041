// Rate limits on routes: per address, per address and e-mail, second limits by another key, and the Redis store shared by the cluster.
import { createRequire } from "node:module";
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitOptions } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import { AppError } from "../errors";
import type { RedisHandle } from "../providers/redis/redis";
import { OutageError } from "./outages";

/**
 * Route options for @fastify/rate-limit: at most `max` calls per `windowMs` for the same key
 * (by default the client's IP address, checked in `onRequest`, before the body is read). Windows
 * are short so that a real owner is never locked out for long; the answer is 429 with a clear
 * message and `Retry-After` in seconds.
 */
export function rateLimit(max: number, windowMs: number, key?: (request: FastifyRequest) => string) {
  return {
    rateLimit: {
      max,
      timeWindow: windowMs,
      // A key built from the body must wait until the body is parsed.
      ...(key ? { keyGenerator: key, hook: "preHandler" as const } : {}),
    },
  };
}

/** Builds the 429 error of the rate limiter (registered once in server/app.ts). */
export function rateLimitError(_request: FastifyRequest, context: { after: string }): AppError {
  return new AppError("rate_limit", `Too many attempts. Please wait ${context.after} and try again.`);
}

/** Key: client IP plus the e-mail in the body, so one attacker cannot lock out an address for everyone. */
export function ipAndEmail(request: FastifyRequest): string {
  return `${request.ip}|${emailOf(request)}`;
}

/** The normalised (trimmed, lower-case) `email` of a parsed body; "" when there is none. */
export function emailOf(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === "string" ? body.email.trim().toLowerCase() : "";
}

/** "5 minutes", "1 minute", "40 seconds": the wait of a 429 message. */
function wait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * A second limit on a route, keyed on something other than the route's own limit: e.g. the
 * e-mail of a sign-in across all client addresses (credential stuffing), while the
 * route's `config.rateLimit` limits the address across all e-mails. Counted on the plugin's
 * store through `app.createRateLimit` (so a shared store plugs in for both), as a `preHandler`
 * because the key comes from the body. The plugin's own `app.rateLimit()` handler cannot serve
 * here: it runs at most once per request, so after the route's limit it would be skipped.
 * @param options.name prefixes the key, so limits sharing a store never share counters.
 * @param options.key the key from the request; requests without one are not counted.
 * @param options.message the first sentence of the 429 answer; the wait is appended.
 * @returns the hooks to put in the route's `preHandler` (none when rate limiting is off).
 * @throws AppError 429 "rate_limit" with a `Retry-After` header (seconds) past the limit; the
 *   store's error while its Redis is down (an outage: 503, see `redisLimitStore`).
 */
export function limitBy(
  app: FastifyInstance,
  options: {
    name: string;
    max: number;
    windowMs: number;
    key: (request: FastifyRequest) => string;
    message: string;
  },
): Array<(request: FastifyRequest, reply: FastifyReply) => Promise<void>> {
  if (!app.hasDecorator("createRateLimit")) return [];
  const check = app.createRateLimit({
    max: options.max,
    timeWindow: options.windowMs,
    keyGenerator: (request) => `${options.name}:${options.key(request)}`,
  });
  return [
    async (request, reply) => {
      if (!options.key(request)) return;
      const limit = await check(request);
      if (limit.isAllowed || !limit.isExceeded) return;
      reply.header("retry-after", limit.ttlInSeconds);
      throw new AppError(
        "rate_limit",
        `${options.message} Please wait ${wait(limit.ttlInSeconds)} and try again.`,
      );
    },
  ];
}

/** @fastify/rate-limit's own Redis store (store/RedisStore.js; the package does not type it). */
type PluginRedisStore = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => FastifyRateLimitStore;

/** ioredis connection states in which Redis is known to be unreachable (waiting to reconnect, closed). */
const REDIS_DOWN_STATES = new Set(["reconnecting", "close", "end"]);

/**
 * A rate-limit store that refuses at once, with OutageError("redis"), while its Redis connection
 * is known to be down, and otherwise counts in `inner`.
 */
class FailClosedStore implements FastifyRateLimitStore {
  constructor(
    private readonly inner: FastifyRateLimitStore,
    private readonly client: Redis,
  ) {}

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
    max: number,
  ): void {
    if (REDIS_DOWN_STATES.has(this.client.status)) {
      callback(new OutageError("redis", `the rate limiter's Redis connection is ${this.client.status}`));
      return;
    }
    this.inner.incr(key, callback, timeWindow, max);
  }

  child(routeOptions: Parameters<FastifyRateLimitStore["child"]>[0]): FastifyRateLimitStore {
    return new FailClosedStore(this.inner.child(routeOptions), this.client);
  }
}

/**
 * The rate limiter's store on Redis (every instance counts on the same counters, so a limit holds
 * for the whole cluster), as the plugin's `store` option: its own Redis store under
 * `<REDIS_PREFIX>rate-limit:`, failing closed.
 *
 * Failing closed: while Redis is down a rate-limited route (the sign-ins, the demo sign-in,
 * password changes, data exports) answers 503 with `Retry-After` and "redis_unavailable"
 * (server/http/outages.ts): at once when the connection is known to be down (reconnecting or
 * closed), else when the command fails (ioredis's command time limit, 5 s). Failing open would
 * lift the limits exactly when an outage happens, or when an attacker manages to cause one: the
 * limits stand against credential stuffing and sign-up floods, and an unlimited sign-in route
 * costs a password hash per request. Counting in memory meanwhile would multiply every limit by
 * the number of instances. Redis outages are short; a client told to come back in a few seconds
 * loses little.
 * @returns the store class the plugin instantiates with its options (continueExceeding and
 *   exponentialBackoff are taken from them).
 * @throws Error when @fastify/rate-limit no longer ships store/RedisStore.js (at the first call).
 */
export function redisLimitStore(redis: RedisHandle): FastifyRateLimitStoreCtor {
  const RedisStore = createRequire(import.meta.url)(
    "@fastify/rate-limit/store/RedisStore.js",
  ) as PluginRedisStore;
  return class extends FailClosedStore {
    constructor(options: RateLimitOptions) {
      super(
        new RedisStore(
          options.continueExceeding ?? false,
          options.exponentialBackoff ?? false,
          redis.client,
          `${redis.prefix}rate-limit:`,
        ),
        redis.client,
      );
    }
  };
}
