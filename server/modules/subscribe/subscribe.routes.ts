// Free subscription routes (product.md §7): whether it is offered, and POST /users/free/subscribe/process.
import type { FastifyInstance } from "fastify";
import { Envelope, envelopeOf, FreeSubscribeOffer } from "../../../common/api";
import { AppError } from "../../errors";
import { ok } from "../../http/envelope";
import { ipAndEmail, rateLimit } from "../../http/rate-limit";
import { answers, zodApp } from "../../http/route-schemas";
import { msg } from "../../i18n/messages";
import { SubscribeBody, subscribeDoc } from "./subscribe.schemas";
import { SUBSCRIBE_ANSWER, type SubscribeService } from "./subscribe.service";

/** The refusal while no video is configured: nothing is stored or mailed. */
const NOT_OFFERED = msg("subscribe.freeSubscriptionNotOfferedServer");

/**
 * product.md §7: POST /users/free/subscribe/process (email), refused with `free_subscribe_off` while no
 * video is configured; ours: GET /users/free/subscribe, public, says whether it is offered
 * (`data.offered`) so the SPA shows the form only then.
 */
export function subscribeRoutes(app: FastifyInstance, subscribe: SubscribeService): void {
  const api = zodApp(app);
  api.get(
    "/api/users/free/subscribe",
    {
      config: rateLimit(120, 60_000),
      schema: {
        ...subscribeDoc("`data.offered`", "ours"),
        response: answers(envelopeOf(FreeSubscribeOffer)),
      },
    },
    async () => ok(msg("subscribe.freeSubscription"), { data: { offered: subscribe.offered } }),
  );

  /** While not offered, any request is refused before its body is checked (as the handler did). */
  const offered = async (): Promise<void> => {
    if (!subscribe.offered) throw new AppError("free_subscribe_off", NOT_OFFERED);
  };
  const processSchema = {
    ...subscribeDoc("a sentence; `free_subscribe_off` when not offered", "§7"),
    body: SubscribeBody,
    response: answers(Envelope),
  };
  const limit = rateLimit(5, 60 * 60_000, ipAndEmail);
  api.post(
    "/api/users/free/subscribe/process",
    { config: limit, preValidation: offered, schema: processSchema },
    async (request) => {
      subscribe.request(request.body.email);
      return ok(SUBSCRIBE_ANSWER);
    },
  );
}
