// Choosing the payment provider from configuration: Stripe when STRIPE_SECRET_KEY is set, else payments off.
import type { AppConfig } from "../../env";
import { NoPayments, type PaymentsProvider } from "./payments";
import { StripePayments } from "./stripe";

/**
 * Chooses the payment provider from configuration (the one place): Stripe when
 * STRIPE_SECRET_KEY is set, otherwise payments are off and the payment calls answer success 0.
 * @throws Error when a key is set without the webhook secret (webhooks could not be verified).
 */
export function createPayments(config: AppConfig): PaymentsProvider {
  if (!config.STRIPE_SECRET_KEY) return new NoPayments();
  if (!config.STRIPE_WEBHOOK_SECRET) {
    throw new Error("STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set.");
  }
  return new StripePayments({
    secretKey: config.STRIPE_SECRET_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    apiBase: config.STRIPE_API_BASE,
    addOnPriceId: config.STRIPE_ADDON_PRICE_ID,
    webhookToleranceSeconds: config.STRIPE_WEBHOOK_TOLERANCE_SECONDS,
  });
}
