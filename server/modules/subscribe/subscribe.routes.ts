import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { ok } from "../../http/envelope";
import { ipAndEmail, rateLimit } from "../../http/rate-limit";
import { EmailField, parseInput } from "../../http/validate";
import { SUBSCRIBE_ANSWER, type SubscribeService } from "./subscribe.service";

const SubscribeBody = z.object({ email: EmailField });

/** spec 7: POST /users/free/subscribe/process (email). */
export function subscribeRoutes(app: FastifyInstance, subscribe: SubscribeService): void {
  const limit = rateLimit(5, 60 * 60_000, ipAndEmail);
  app.post("/api/users/free/subscribe/process", { config: limit }, async (request) => {
    const body = parseInput(SubscribeBody, request.body);
    subscribe.request(body.email);
    return ok(SUBSCRIBE_ANSWER);
  });
}
