// Plan purchases: checkout of a plan or the add-on, the billing portal, and what the user can buy (/payment/*).
import type { Envelope, PaymentOptions, PaymentRedirect } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";

/**
 * Plan purchases: each call answers the URL of a hosted payment page (Stripe Checkout
 * or the Customer Portal) that the browser is sent to. A refusal (payments off, a guest
 * account, a plan granted elsewhere) throws `ApiError('envelope')` with the server's message.
 */

type UrlEnvelope = Envelope<PaymentRedirect>;

function urlOf(answer: UrlEnvelope): string {
  const url = ensureSuccess(answer).data?.url;
  if (typeof url !== "string" || url === "") throw new Error("The payment page is missing from the answer.");
  return url;
}

/** POST /payment/checkout with `plan` (the plan's id): the checkout of a monthly plan. */
export async function startPlanCheckout(planId: string): Promise<string> {
  return urlOf(
    await apiRequest<UrlEnvelope>("/payment/checkout", {
      method: "POST",
      body: new URLSearchParams({ plan: planId }),
    }),
  );
}

/** POST /payment/addon: the checkout of the add-on (product.md §9: 100 messages for $1.99). */
export async function startAddOnCheckout(): Promise<string> {
  return urlOf(await apiRequest<UrlEnvelope>("/payment/addon", { method: "POST" }));
}

/** POST /payment/portal: the page where the subscription is managed or cancelled. */
export async function openBillingPortal(): Promise<string> {
  return urlOf(await apiRequest<UrlEnvelope>("/payment/portal", { method: "POST" }));
}

/** GET /payment/options: what the signed-in user can buy or manage here; flags 0 or 1 (common/api). */
export type { PaymentOptions } from "../../common/api";

/** GET /payment/options. @throws ApiError when the answer is not a success. */
export async function getPaymentOptions(): Promise<PaymentOptions> {
  const answer = ensureSuccess(await apiRequest<Envelope<PaymentOptions>>("/payment/options"));
  if (answer.data === undefined) throw new Error("The payment options are missing from the answer.");
  return answer.data;
}
