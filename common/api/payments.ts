// The plans' wire shapes for the user (product.md §3, 7): a pricing plan, what the signed-in user can buy or manage, the payment pages, webhook receipts and the free subscription's offer.
import { z } from "zod";

/**
 * product.md §3 "Pricing plan" (`GET /payment/pricing`, `data`): pricingImage is a file name under
 * /content/pricing/, pricingPrice the monthly price in dollars as text ("9.99"), pricingDescription
 * HTML. Ours besides: the plan's id and two flags, 0 or 1.
 */
export const PricingPlan = z
  .object({
    /** Where the card links to (the plan's own page). */
    pricingUrl: z.string().describe("Where the card links to (the plan's own page)."),
    pricingImage: z.string().describe("A file name under /content/pricing/."),
    pricingPrice: z.string().describe('The monthly price in dollars as text ("9.99").'),
    pricingPlanName: z.string(),
    pricingDescription: z.string().describe("HTML."),
    /** Ours: the plan's id, for checkout. */
    pricingPlanUUID: z.string().describe("The plan's id, for checkout."),
    /** Ours: 1 when the plan is bought through checkout here, 0 when it is granted elsewhere. */
    pricingCheckout: z
      .literal([0, 1])
      .describe("1 when the plan is bought through checkout here, 0 when it is granted elsewhere."),
    /** Ours: 1 for the signed-in user's current plan (0 without a session). */
    pricingCurrent: z
      .literal([0, 1])
      .describe("1 for the signed-in user's current plan (0 without a session)."),
  })
  .meta({ id: "PricingPlan", description: "A plan as the pricing page shows it." });
export type PricingPlan = z.infer<typeof PricingPlan>;

/** GET /payment/options: what the signed-in user can buy or manage here; flags 0 or 1. */
export const PaymentOptions = z
  .object({
    /** Online payments are configured on this server. */
    payments: z.literal([0, 1]).describe("Online payments are configured on this server."),
    /** The add-on can be bought now (a monthly plan at its limit, product.md §9). */
    addOn: z.literal([0, 1]).describe("The add-on can be bought now (a monthly plan at its limit)."),
    /** The subscription can be managed online (the user paid online before). */
    manage: z
      .literal([0, 1])
      .describe("The subscription can be managed online (the user paid online before)."),
    /** The plan counts messages per month. */
    monthly: z.literal([0, 1]).describe("The plan counts messages per month."),
    /** This period's messages are used up. */
    atLimit: z.literal([0, 1]).describe("This period's messages are used up."),
  })
  .meta({ id: "PaymentOptions", description: "What the signed-in user can buy or manage here." });
export type PaymentOptions = z.infer<typeof PaymentOptions>;

/**
 * Ours: `data` of `POST /payment/checkout`, `/payment/addon` and `/payment/portal`: the provider's
 * page the SPA sends the browser to.
 */
export const PaymentRedirect = z
  .object({
    url: z.string().describe("The payment provider's page (checkout or the customer portal)."),
  })
  .meta({ id: "PaymentRedirect", description: "The payment provider's page to open." });
export type PaymentRedirect = z.infer<typeof PaymentRedirect>;

/**
 * Ours: `data` of `POST /payment/webhook`, what a delivery did, for the provider's log: the
 * event's id, whether it was applied before (nothing changed this time) and the outcome in words.
 */
export const WebhookReceipt = z
  .object({
    eventId: z.string().describe("The provider's event id."),
    duplicate: z.boolean().describe("True when this event was applied before: nothing changed this time."),
    outcome: z.string().describe('What the event did, in words (e.g. "plan Basic", "ignored").'),
  })
  .meta({ id: "WebhookReceipt", description: "What a webhook delivery did." });
export type WebhookReceipt = z.infer<typeof WebhookReceipt>;

/** Ours: `data` of `GET /users/free/subscribe`, whether the free subscription is offered here. */
export const FreeSubscribeOffer = z
  .object({
    offered: z.boolean().describe("Whether the free subscription form is offered (a video is configured)."),
  })
  .meta({ id: "FreeSubscribeOffer", description: "Whether the free subscription is offered here." });
export type FreeSubscribeOffer = z.infer<typeof FreeSubscribeOffer>;
