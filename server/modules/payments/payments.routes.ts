// Payment routes: the pricing plans (product.md §7), checkout, add-on, customer portal, the user's payment options and the provider's webhook.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { PricingPlan } from "../../../common/api";
import { dollars } from "../../../common/constants";
import type { User } from "../../db/schema";
import { bearerToken, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { parseInput } from "../../http/validate";
import { CheckoutBody } from "./payments.schemas";
import type { PaymentsService, PricedPlan } from "./payments.service";

/**
 * product.md §3 "Pricing plan": image under /content/pricing/, price in dollars as text. Ours besides:
 * the plan's id, whether it is bought through checkout here, and whether it is the signed-in
 * user's plan.
 */
export function presentPricingPlan({ plan, checkout, current }: PricedPlan): PricingPlan {
  return {
    pricingUrl: plan.url,
    pricingImage: plan.image,
    pricingPrice: dollars(plan.price_cents),
    pricingPlanName: plan.name,
    pricingDescription: plan.description_html,
    pricingPlanUUID: plan.id,
    pricingCheckout: checkout ? 1 : 0,
    pricingCurrent: current ? 1 : 0,
  };
}

/**
 * product.md §7 `GET /payment/pricing`, and ours: checkout, add-on, portal, the user's payment
 * options and the provider's
 * webhook. The webhook reads its body raw (the signature covers the exact bytes), in its own
 * plugin scope so the other routes keep their parsers.
 */
export async function paymentsRoutes(
  app: FastifyInstance,
  payments: PaymentsService,
  auth: onRequestAsyncHookHandler,
  authenticate: (token: string) => Promise<User | undefined>,
): Promise<void> {
  /** Public; with a valid bearer token the user's current plan is marked. */
  app.get("/api/payment/pricing", async (request) => {
    const token = bearerToken(request);
    const user = token ? await authenticate(token) : undefined;
    const plans = await payments.pricing(user);
    return ok("Plans.", { data: plans.map(presentPricingPlan) });
  });

  await signedIn(app, auth, (scope) => {
    /** what the user can buy or manage here, so the SPA offers no button that fails. */
    scope.get("/api/payment/options", async (request) => {
      const options = payments.paymentOptions(currentUser(request));
      return ok("Payment options.", {
        data: {
          payments: options.payments ? 1 : 0,
          addOn: options.addOn ? 1 : 0,
          manage: options.manage ? 1 : 0,
          monthly: options.monthly ? 1 : 0,
          atLimit: options.atLimit ? 1 : 0,
        },
      });
    });

    scope.post("/api/payment/checkout", async (request) => {
      const body = parseInput(CheckoutBody, request.body);
      const url = await payments.checkout(currentUser(request), body.plan);
      return ok("Redirecting to the payment page.", { data: { url } });
    });

    scope.post("/api/payment/addon", async (request) => {
      const url = await payments.addOn(currentUser(request));
      return ok("Redirecting to the payment page.", { data: { url } });
    });

    scope.post("/api/payment/portal", async (request) => {
      const url = await payments.portal(currentUser(request));
      return ok("Redirecting to your subscription.", { data: { url } });
    });
  });

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
    scope.post("/api/payment/webhook", async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers["stripe-signature"];
      const result = await payments.handleWebhook(raw, typeof signature === "string" ? signature : "");
      return ok(result.duplicate ? "Already received." : "Received.", { data: result });
    });
  });
}
