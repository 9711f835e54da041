// The two rate limits of a route that takes an e-mail: per client address and per e-mail (credential stuffing, mail flooding).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { emailOf, limitBy, rateLimit } from "../../http/rate-limit";
import { hasNul, nulRefusal } from "../../http/security";
import type { Message } from "../../i18n/messages";

/** A NUL character anywhere in the request: 400 `bad_input` (as security.ts refuses it). */
async function refuseNul(request: FastifyRequest): Promise<void> {
  if (hasNul(request.query) || hasNul(request.params) || hasNul(request.body)) throw nulRefusal();
}

/**
 * Route options of a route that takes an e-mail in its body (sign-in, reset mail, set-up,
 * sign-up): two limits (credential stuffing and mail flooding). `perAddress` counts a client
 * address across all e-mails (the route's own limit, checked before the body is read); `perEmail`
 * counts one e-mail across all addresses, so many clients cannot hammer one account. Windows in
 * milliseconds. The per-e-mail limit runs in `preValidation`, on the e-mail as sent (trimmed, lower
 * case), before the route's schema checks the body: after the NUL refusal, so a refused body still
 * counts and, past the limit, the 429 comes before any 400.
 * @returns the route's `config` and `preValidation`. The per-e-mail check throws AppError 429
 * "rate_limit" with `perEmail.message` and a Retry-After past its limit.
 */
export function limitPerAddressAndEmail(
  app: FastifyInstance,
  perAddress: { max: number; windowMs: number },
  perEmail: { name: string; max: number; windowMs: number; message: Message },
) {
  return {
    config: rateLimit(perAddress.max, perAddress.windowMs),
    preValidation: [refuseNul, ...limitBy(app, { ...perEmail, key: emailOf })],
  };
}
