// Rate limits on routes: per address, per address and e-mail, second limits by another key, and the Redis store (rate-limiter-flexible) shared by the cluster.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "../errors";
import { type Message, msg } from "../i18n/messages";
import { lazyModule } from "../lazy-module";
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
  return new AppError("rate_limit", msg("http.tooManyAttemptsWaitTry", { after: waitOf(context.after) }));
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

/** "5 minutes", "1 minute", "40 seconds": the wait of a 429 message, a term of the catalogue. */
function wait(seconds: number): Message {
  if (seconds < 60) return msg(seconds === 1 ? "wait.second" : "wait.seconds", { n: seconds });
  const minutes = Math.ceil(seconds / 60);
  return msg(minutes === 1 ? "wait.minute" : "wait.minutes", { n: minutes });
}

/** The wait @fastify/rate-limit writes ("1 minute", "30 seconds", "2 hours") as a term; other text as it is. */
function waitOf(after: string): Message | string {
  const match = /^(\d+) (second|minute|hour)(s?)$/.exec(after);
  if (!match) return after;
  const ids = {
    second: ["wait.second", "wait.seconds"],
    minute: ["wait.minute", "wait.minutes"],
    hour: ["wait.hour", "wait.hours"],
  } as const;
  const [one, many] = ids[match[2] as keyof typeof ids];
  return msg(match[3] === "s" ? many : one, { n: Number(match[1]) });
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
    message: Message;
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
        msg("http.waitTryAgain", { message: options.message, wait: wait(limit.ttlInSeconds) }),
      );
    },
  ];
}

/** rate-limiter-flexible, loaded with the first Redis store (the embedded default never needs it). */
const loadLimiters = lazyModule<typeof import("rate-limiter-flexible")>("rate-limiter-flexible");

/** ioredis connection states in which Redis is known to be unreachable (waiting to reconnect, closed). */
const REDIS_DOWN_STATES = new Set(["reconnecting", "close", "end"]);

/** A call counted: calls on the key in its window so far, and milliseconds until the window ends. */
type Count = { current: number; ttl: number };

/**
 * The counters of every rate-limited route on Redis, through rate-limiter-flexible's
 * RateLimiterRedis on its own connection (`RedisHandle.transactions`, not auto-pipelined): one limiter per window and limit, keys
 * `<REDIS_PREFIX>rate-limit:<key>`. A fixed window: the first call sets the key's expiry (the
 * window, in whole seconds), later calls only add to it. No `insuranceLimiter`: while Redis fails
 * nothing is counted in memory instead (see `redisLimitStore`).
 */
class RedisCounters {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(private readonly redis: RedisHandle) {}

  /**
   * Counts one call on `key` in a window of `windowMs` (rounded up to whole seconds) allowing `max`.
   * @returns the count, also past the limit (the plugin decides to refuse).
   * @throws OutageError("redis") at once while the connection is reconnecting or closed; ioredis's
   *   error when the command fails (its command time limit, 5 s).
   */
  async count(key: string, windowMs: number, max: number): Promise<Count> {
    const { status } = this.redis.transactions;
    if (REDIS_DOWN_STATES.has(status)) {
      throw new OutageError("redis", `the rate limiter's Redis connection is ${status}`);
    }
    const { RateLimiterRes } = loadLimiters();
    let answer: RateLimiterRes;
    try {
      answer = await this.limiter(windowMs, max).consume(key);
    } catch (outcome) {
      // Past the limit the limiter rejects with the count itself; anything else is Redis failing.
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      answer = outcome;
    }
    return { current: answer.consumedPoints, ttl: answer.msBeforeNext };
  }

  /** The limiter of a window and limit, made on first use. */
  private limiter(windowMs: number, max: number): RateLimiterRedis {
    const name = `${windowMs}/${max}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      limiter = new (loadLimiters().RateLimiterRedis)({
        storeClient: this.redis.transactions,
        keyPrefix: `${this.redis.prefix}rate-limit`,
        points: max,
        duration: Math.max(1, Math.ceil(windowMs / 1000)),
      });
      this.limiters.set(name, limiter);
    }
    return limiter;
  }
}

/**
 * The plugin's custom store (README "Custom Store"): counts on `counters`, each route's keys
 * starting with its method and URL (`POST/api/auth/demo-login-<address>`); a limit made by
 * `app.createRateLimit` has no route, its keys are its own (`limitBy` prefixes its name).
 */
class RedisLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly counters: RedisCounters,
    private readonly route = "",
  ) {}

  incr(
    key: string,
    callback: (error: Error | null, result?: Count) => void,
    timeWindow: number,
    max: number,
  ): void {
    this.counters.count(this.route + key, timeWindow, max).then(
      (count) => callback(null, count),
      (error: Error) => callback(error),
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore["child"]>[0]): FastifyRateLimitStore {
    // The plugin passes the route as `routeInfo` (README "Custom Store"); `{}` for createRateLimit.
    const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
    return new RedisLimitStore(
      this.counters,
      route?.method && route.url ? `${String(route.method)}${String(route.url)}-` : "",
    );
  }
}

/**
 * The rate limiter's store on Redis (every instance counts on the same counters, so a limit holds
 * for the whole cluster), as the plugin's `store` option: rate-limiter-flexible's RateLimiterRedis
 * under `<REDIS_PREFIX>rate-limit:`, failing closed.
 *
 * Failing closed: while Redis is down a rate-limited route (the sign-ins, the demo sign-in,
 * password changes, data exports) answers 503 with `Retry-After` and "redis_unavailable"
 * (server/http/outages.ts): at once when the connection is known to be down (reconnecting or
 * closed), else when the command fails (ioredis's command time limit, 5 s). Failing open would
 * lift the limits exactly when an outage happens, or when an attacker manages to cause one: the
 * limits stand against credential stuffing and sign-up floods, and an unlimited sign-in route
 * costs a password hash per request. Counting in memory meanwhile (rate-limiter-flexible's
 * `insuranceLimiter`, deliberately not used) would multiply every limit by the number of
 * instances. Redis outages are short; a client told to come back in a few seconds loses little.
 * @returns the store class the plugin instantiates (its options are not needed: the window and
 *   limit come with each call).
 */
export function redisLimitStore(redis: RedisHandle): FastifyRateLimitStoreCtor {
  const counters = new RedisCounters(redis);
  return class extends RedisLimitStore {
    constructor() {
      super(counters);
    }
  };
}
