// Request shapes of the payment routes (checkout), checked with zod, and their documentation.
import { z } from "zod";
import { msg, zodText } from "../../i18n/messages";

/** POST /api/payment/checkout: the plan to buy. */
export const CheckoutBody = z.object({
  plan: z
    .string()
    .trim()
    .min(1, zodText(msg("payments.planRequired")))
    .max(100, zodText(msg("payments.planNotValid")))
    .describe("plan id"),
});

/**
 * The documentation of a payment route in its schema (the OpenAPI document): what it answers
 * (docs/api.md's Answers cell), where it comes from (From) and, when not the default, who may call it.
 */
export const paymentsDoc = (description: string, from = "ours", who?: string) => ({
  tags: ["Payments and free subscription"],
  description,
  "x-from": from,
  ...(who ? { "x-who": who } : {}),
});

/** The Answers cell of GET /api/payment/pricing. */
export const PRICING_ANSWERS =
  "`data`: plans (pricingPlanName, pricingPrice, pricingImage, pricingUrl, pricingDescription, pricingPlanUUID, pricingCheckout, pricingCurrent)";
