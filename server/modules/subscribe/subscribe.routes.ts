// Free subscription routes (product.md §7): whether it is offered, and POST /users/free/subscribe/process.
import type { FastifyInstance } from "fastify";
import { AppError } from "../../errors";
import { ok } from "../../http/envelope";
import { ipAndEmail, rateLimit } from "../../http/rate-limit";
import { parseInput } from "../../http/validate";
import { SubscribeBody } from "./subscribe.schemas";
import { SUBSCRIBE_ANSWER, type SubscribeService } from "./subscribe.service";

/** The refusal while no video is configured: nothing is stored or mailed. */
const NOT_OFFERED = "The free subscription is not offered on this server.";

/**
 * product.md §7: POST /users/free/subscribe/process (email), refused with `free_subscribe_off` while no
 * video is configured; ours: GET /users/free/subscribe, public, says whether it is offered
 * (`data.offered`) so the SPA shows the form only then.
 */
export function subscribeRoutes(app: FastifyInstance, subscribe: SubscribeService): void {
  app.get("/api/users/free/subscribe", { config: rateLimit(120, 60_000) }, async () =>
    ok("Free subscription.", { data: { offered: subscribe.offered } }),
  );
  const limit = rateLimit(5, 60 * 60_000, ipAndEmail);
  app.post("/api/users/free/subscribe/process", { config: limit }, async (request) => {
    if (!subscribe.offered) throw new AppError("free_subscribe_off", NOT_OFFERED);
    const body = parseInput(SubscribeBody, request.body);
    subscribe.request(body.email);
    return ok(SUBSCRIBE_ANSWER);
  });
}
