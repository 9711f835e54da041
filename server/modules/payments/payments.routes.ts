// Payment routes: the pricing plans (product.md §7), checkout, add-on, customer portal, the user's payment options and the provider's webhook.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import {
  envelopeOf,
  PaymentOptions,
  PaymentRedirect,
  PricingPlan,
  WebhookReceipt,
} from "../../../common/api";
import { dollars } from "../../../common/constants";
import type { User } from "../../db/schema";
import { bearerToken, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { answers, zodApp } from "../../http/route-schemas";
import { msg } from "../../i18n/messages";
import { CheckoutBody, PRICING_ANSWERS, paymentsDoc } from "./payments.schemas";
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
  const pricing = {
    ...paymentsDoc(PRICING_ANSWERS, "§7", "public (a bearer token marks the user's plan)"),
    response: answers(envelopeOf(PricingPlan.array())),
  };
  zodApp(app).get("/api/payment/pricing", { schema: pricing }, async (request) => {
    const token = bearerToken(request);
    const user = token ? await authenticate(token) : undefined;
    const plans = await payments.pricing(user);
    return ok(msg("admin.plans"), { data: plans.map(presentPricingPlan) });
  });

  await signedIn(app, auth, (scope) => {
    const redirect = answers(envelopeOf(PaymentRedirect));
    /** what the user can buy or manage here, so the SPA offers no button that fails. */
    const optionsSchema = {
      ...paymentsDoc("`data`: payments, addOn, manage, monthly, atLimit (0/1 each)"),
      response: answers(envelopeOf(PaymentOptions)),
    };
    scope.get("/api/payment/options", { schema: optionsSchema }, async (request) => {
      const options = payments.paymentOptions(currentUser(request));
      return ok<PaymentOptions>(msg("payments.paymentOptions"), {
        data: {
          payments: options.payments ? 1 : 0,
          addOn: options.addOn ? 1 : 0,
          manage: options.manage ? 1 : 0,
          monthly: options.monthly ? 1 : 0,
          atLimit: options.atLimit ? 1 : 0,
        },
      });
    });

    const checkout = {
      ...paymentsDoc("`data.url`: the payment page"),
      body: CheckoutBody,
      response: redirect,
    };
    scope.post("/api/payment/checkout", { schema: checkout }, async (request) => {
      const url = await payments.checkout(currentUser(request), request.body.plan);
      return ok(msg("payments.redirectingPaymentPage"), { data: { url } });
    });

    scope.post(
      "/api/payment/addon",
      { schema: { ...paymentsDoc("`data.url`"), response: redirect } },
      async (request) => {
        const url = await payments.addOn(currentUser(request));
        return ok(msg("payments.redirectingPaymentPage"), { data: { url } });
      },
    );

    const portal = { ...paymentsDoc("`data.url`: manage the subscription"), response: redirect };
    scope.post("/api/payment/portal", { schema: portal }, async (request) => {
      const url = await payments.portal(currentUser(request));
      return ok(msg("payments.redirectingSubscription"), { data: { url } });
    });
  });

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
    // No body schema: the body is the raw bytes the signature covers (docs/api.md: "raw body").
    const webhook = paymentsDoc(
      "`data`: the result; `bad_signature`, `webhook_off`",
      "ours",
      "the payment provider (`Stripe-Signature` header)",
    );
    zodApp(scope).post(
      "/api/payment/webhook",
      { schema: { ...webhook, response: answers(envelopeOf(WebhookReceipt)) } },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers["stripe-signature"];
        const result = await payments.handleWebhook(raw, typeof signature === "string" ? signature : "");
        return ok(result.duplicate ? msg("payments.alreadyReceived") : msg("payments.received"), {
          data: result,
        });
      },
    );
  });
}
