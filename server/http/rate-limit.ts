import type { FastifyRequest } from "fastify";
import { AppError } from "./errors";

/**
 * Route options for @fastify/rate-limit: at most `max` calls per `windowMs` for the same key
 * (by default the client's IP address). Windows are short so that a real owner is never locked
 * out for long; the answer is 429 with a clear message (issue 3).
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
  return new AppError("rate_limit", 429, `Too many attempts. Please wait ${context.after} and try again.`);
}

/** Key: client IP plus the e-mail in the body, so one attacker cannot lock out an address for everyone. */
export function ipAndEmail(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined;
  const email = typeof body?.email === "string" ? body.email.trim().toLowerCase() : "";
  return `${request.ip}|${email}`;
}
