// Payments behind one interface: hosted pages, payers, verified webhook events and subscriptions, and payments off.
/**
 * The payment provider: hosted checkout pages for the monthly plans and the one-time
 * add-on, a hosted page where the customer manages (cancels) the subscription, and verified
 * webhook events, normalised so the payments service does not depend on one provider's shapes.
 */

/** A hosted page the browser is sent to. */
export interface HostedPage {
  id: string;
  url: string;
}

/** Who pays, as the provider will know them. */
export interface Payer {
  userId: string;
  email: string;
  /** The provider's customer id from an earlier purchase; '' for a first purchase. */
  customerId: string;
}

/** A verified event, reduced to what changes a user's plan or messages. Times in epoch ms. */
export type PaymentEvent =
  | {
      kind: "checkout_completed";
      id: string;
      type: string;
      /** "subscription" for a plan, "addon" for the one-time add-on. */
      purpose: "subscription" | "addon";
      /** The user who started the checkout (our id, carried through the provider). */
      userId: string;
      planId: string;
      customerId: string;
      subscriptionId: string;
      /** Whether the money was taken (a one-time payment may still be processing). */
      paid: boolean;
      /** Messages bought (add-on). */
      messages: number;
    }
  | {
      kind: "subscription_changed" | "subscription_deleted" | "invoice_paid";
      id: string;
      type: string;
      userId: string;
      customerId: string;
      subscriptionId: string;
      /** The recurring price the subscription is on (maps to a plan). */
      priceId: string;
      /** active, trialing, past_due, canceled, unpaid, incomplete, incomplete_expired, paused. */
      status: string;
      /** Set when the subscription ends at the end of the paid period: that time. */
      endsAt: number | null;
      /** End of the current paid period. */
      periodEnd: number | null;
    }
  | { kind: "ignored"; id: string; type: string };

/** A subscription as the provider holds it now. Times in epoch ms. */
export interface SubscriptionState {
  subscriptionId: string;
  customerId: string;
  userId: string;
  priceId: string;
  status: string;
  endsAt: number | null;
  periodEnd: number | null;
}

/** Raised when a webhook's signature is missing, forged or too old. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

export interface PaymentsProvider {
  /** "stripe", or "none" when payments are off. */
  readonly name: string;
  /** False when no key is configured: every call below then throws. */
  readonly enabled: boolean;
  /** A hosted checkout for a monthly subscription at `priceId`. */
  createSubscriptionCheckout(input: {
    payer: Payer;
    planId: string;
    priceId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<HostedPage>;
  /** A hosted checkout for the one-time add-on (product.md §9: 100 messages for $1.99). */
  createAddOnCheckout(input: {
    payer: Payer;
    messages: number;
    amountCents: number;
    successUrl: string;
    cancelUrl: string;
  }): Promise<HostedPage>;
  /** The hosted page where a customer manages or cancels the subscription. */
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<HostedPage>;
  /**
   * Verifies a webhook delivery against the raw body and its signature header, then reads it.
   * @throws WebhookSignatureError for a missing, forged or too old signature.
   */
  verifyWebhook(rawBody: Buffer, signature: string): PaymentEvent;
  /**
   * The subscription's current state (events may arrive out of order, so the service acts on
   * this rather than on an event's snapshot). @returns undefined when the provider does not
   * know the id.
   */
  retrieveSubscription(id: string): Promise<SubscriptionState | undefined>;
}

/** Payments off (no key configured). */
export class NoPayments implements PaymentsProvider {
  readonly name = "none";
  readonly enabled = false;
  private off(): never {
    throw new Error("Payments are not configured.");
  }
  createSubscriptionCheckout(): Promise<HostedPage> {
    this.off();
  }
  createAddOnCheckout(): Promise<HostedPage> {
    this.off();
  }
  createPortalSession(): Promise<HostedPage> {
    this.off();
  }
  verifyWebhook(): PaymentEvent {
    throw new WebhookSignatureError("Payments are not configured.");
  }
  retrieveSubscription(): Promise<SubscriptionState | undefined> {
    this.off();
  }
}
