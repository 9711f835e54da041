// The two rate limits of a route that takes an e-mail: per client address and per e-mail (credential stuffing, mail flooding).
import type { FastifyInstance } from "fastify";
import { emailOf, limitBy, rateLimit } from "../../http/rate-limit";

/**
 * Route options of a route that takes an e-mail in its body (sign-in, reset mail): two limits
 * (credential stuffing and mail flooding). `perAddress` counts a client address across
 * all e-mails (the route's own limit, checked before the body is read); `perEmail` counts one
 * e-mail across all addresses, so many clients cannot hammer one account. Windows in milliseconds.
 * @returns the route's `config` and `preHandler`. The per-e-mail check throws AppError 429
 * "rate_limit" with `perEmail.message` and a Retry-After past its limit.
 */
export function limitPerAddressAndEmail(
  app: FastifyInstance,
  perAddress: { max: number; windowMs: number },
  perEmail: { name: string; max: number; windowMs: number; message: string },
) {
  return {
    config: rateLimit(perAddress.max, perAddress.windowMs),
    preHandler: limitBy(app, { ...perEmail, key: emailOf }),
  };
}
