// The two rate limits of a route that takes an e-mail: per client address and per e-mail (credential stuffing, mail flooding).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { emailOf, limitBy, rateLimit } from "../../http/rate-limit";
import { hasNul, nulRefusal } from "../../http/security";

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

/** A NUL character anywhere in the request: 400 `bad_input` (as security.ts refuses it). */
async function refuseNul(request: FastifyRequest): Promise<void> {
  if (hasNul(request.query) || hasNul(request.params) || hasNul(request.body)) throw nulRefusal();
}

/**
 * `limitPerAddressAndEmail` for a route whose body is checked by its schema: the per-e-mail limit
 * runs in `preValidation`, on the e-mail as sent (trimmed, lower case), where it ran when the
 * handler checked the body itself: after the NUL refusal and before the schema's refusals, so
 * refused bodies still count and, past the limit, the 429 still comes first.
 * @returns the route's `config` and `preValidation`.
 */
export function limitPerAddressAndEmailBeforeValidation(
  app: FastifyInstance,
  perAddress: { max: number; windowMs: number },
  perEmail: { name: string; max: number; windowMs: number; message: string },
) {
  const { config, preHandler } = limitPerAddressAndEmail(app, perAddress, perEmail);
  return { config, preValidation: [refuseNul, ...preHandler] };
}
