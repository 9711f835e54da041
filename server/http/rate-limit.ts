import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors";

/**
 * Route options for @fastify/rate-limit: at most `max` calls per `windowMs` for the same key
 * (by default the client's IP address, checked in `onRequest`, before the body is read). Windows
 * are short so that a real owner is never locked out for long; the answer is 429 with a clear
 * message and `Retry-After` in seconds (issue 3, issue 13).
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
 * e-mail of a sign-in across all client addresses (issue 13: credential stuffing), while the
 * route's `config.rateLimit` limits the address across all e-mails. Counted on the plugin's
 * store through `app.createRateLimit` (so a shared store plugs in for both), as a `preHandler`
 * because the key comes from the body. The plugin's own `app.rateLimit()` handler cannot serve
 * here: it runs at most once per request, so after the route's limit it would be skipped.
 * @param options.name prefixes the key, so limits sharing a store never share counters.
 * @param options.key the key from the request; requests without one are not counted.
 * @param options.message the first sentence of the 429 answer; the wait is appended.
 * @returns the hooks to put in the route's `preHandler` (none when rate limiting is off).
 * @throws AppError 429 "rate_limit" with a `Retry-After` header (seconds) past the limit.
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
