// Stripe payments: Checkout Sessions, the Customer Portal, and webhooks verified on the raw body.
import type Stripe from "stripe";
import { lazyModule } from "../../lazy-module";
import {
  type HostedPage,
  type Payer,
  type PaymentEvent,
  type PaymentsProvider,
  type SubscriptionState,
  WebhookSignatureError,
} from "./payments";

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** API origin, e.g. https://api.stripe.com (default) or a local server in tests. */
  apiBase: string;
  /** A one-time Price for the add-on; '' builds the price inline from `amountCents`. */
  addOnPriceId: string;
  /** Oldest webhook signature accepted, seconds (replays beyond it are refused). */
  webhookToleranceSeconds: number;
}

type Json = Record<string, unknown>;

const record = (value: unknown): Json =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string => (typeof value === "string" ? value : "");
/** An expandable field: the id, whether Stripe sent the id or the object. */
const idOf = (value: unknown): string => text(value) || text(record(value).id);
const seconds = (value: unknown): number | null =>
  typeof value === "number" && value > 0 ? value * 1000 : null;

/** The first subscription item (our subscriptions have exactly one: the plan's price). */
function firstItem(subscription: Json): Json {
  const items = record(subscription.items).data;
  return Array.isArray(items) ? record(items[0]) : {};
}

/** The subscription of an invoice, in the current API (`parent.subscription_details`) or older ones. */
function invoiceSubscription(invoice: Json): string {
  const details = record(record(invoice.parent).subscription_details);
  return idOf(details.subscription) || idOf(invoice.subscription);
}

/** The recurring price of an invoice's first line, in the current API or older ones. */
function invoicePrice(invoice: Json): string {
  const lines = record(invoice.lines).data;
  const line = Array.isArray(lines) ? record(lines[0]) : {};
  return idOf(record(record(line.pricing).price_details).price) || idOf(line.price);
}

/** The Stripe SDK, loaded when STRIPE_SECRET_KEY builds this provider, not at startup. */
const loadStripe = lazyModule<typeof import("stripe").default>("stripe");

/**
 * Stripe (the official `stripe` package): Checkout Sessions, the Customer Portal and webhooks
 * verified with `stripe.webhooks.constructEvent` on the raw body. Our user id travels as
 * `client_reference_id` and in the metadata of the session and of the subscription, so every
 * later event names the user even when events arrive out of order.
 */
export class StripePayments implements PaymentsProvider {
  readonly name = "stripe";
  readonly enabled = true;
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeOptions) {
    const base = new URL(options.apiBase);
    this.stripe = new (loadStripe())(options.secretKey, {
      host: base.hostname,
      port: base.port || (base.protocol === "http:" ? 80 : 443),
      protocol: base.protocol === "http:" ? "http" : "https",
      maxNetworkRetries: 1,
      timeout: 20_000,
    });
  }

  async createSubscriptionCheckout(input: {
    payer: Payer;
    planId: string;
    priceId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<HostedPage> {
    const metadata = { userId: input.payer.userId, planId: input.planId, purpose: "subscription" };
    const session = await this.stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: input.priceId, quantity: 1 }],
      client_reference_id: input.payer.userId,
      ...(input.payer.customerId
        ? { customer: input.payer.customerId }
        : input.payer.email
          ? { customer_email: input.payer.email }
          : {}),
      metadata,
      subscription_data: { metadata },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    if (!session.url) throw new Error("Stripe answered a checkout session without a URL.");
    return { id: session.id, url: session.url };
  }

  async createAddOnCheckout(input: {
    payer: Payer;
    messages: number;
    amountCents: number;
    successUrl: string;
    cancelUrl: string;
  }): Promise<HostedPage> {
    const lineItem = this.options.addOnPriceId
      ? { price: this.options.addOnPriceId, quantity: 1 }
      : {
          quantity: 1,
          price_data: {
            currency: "usd",
            unit_amount: input.amountCents,
            product_data: { name: `${input.messages} additional chat messages` },
          },
        };
    const session = await this.stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [lineItem],
      client_reference_id: input.payer.userId,
      ...(input.payer.customerId
        ? { customer: input.payer.customerId }
        : input.payer.email
          ? { customer_email: input.payer.email }
          : {}),
      metadata: { userId: input.payer.userId, purpose: "addon", messages: String(input.messages) },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    if (!session.url) throw new Error("Stripe answered a checkout session without a URL.");
    return { id: session.id, url: session.url };
  }

  async createPortalSession(input: { customerId: string; returnUrl: string }): Promise<HostedPage> {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: input.customerId,
      return_url: input.returnUrl,
    });
    return { id: session.id, url: session.url };
  }

  async retrieveSubscription(id: string): Promise<SubscriptionState | undefined> {
    try {
      const subscription = await this.stripe.subscriptions.retrieve(id);
      return readSubscription(record(subscription));
    } catch (error) {
      if (error instanceof loadStripe().errors.StripeInvalidRequestError && error.statusCode === 404)
        return undefined;
      throw error;
    }
  }

  verifyWebhook(rawBody: Buffer, signature: string): PaymentEvent {
    if (!signature) throw new WebhookSignatureError("The Stripe-Signature header is missing.");
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.options.webhookSecret,
        this.options.webhookToleranceSeconds,
      );
    } catch (error) {
      throw new WebhookSignatureError(error instanceof Error ? error.message : String(error));
    }
    return readEvent(event.id, event.type, record(event.data.object));
  }
}

/** Reads a Stripe subscription (API 2025+: the period sits on its item; older: on the subscription). */
function readSubscription(object: Json): SubscriptionState {
  const item = firstItem(object);
  const periodEnd = seconds(item.current_period_end) ?? seconds(object.current_period_end);
  return {
    subscriptionId: text(object.id),
    customerId: idOf(object.customer),
    userId: text(record(object.metadata).userId),
    priceId: idOf(item.price),
    status: text(object.status),
    endsAt: object.cancel_at_period_end === true ? periodEnd : seconds(object.cancel_at),
    periodEnd,
  };
}

/** Reduces a Stripe event to the `PaymentEvent` the payments service acts on. */
function readEvent(id: string, type: string, object: Json): PaymentEvent {
  const metadata = record(object.metadata);
  switch (type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const purpose = text(metadata.purpose) === "addon" ? "addon" : "subscription";
      return {
        kind: "checkout_completed",
        id,
        type,
        purpose,
        userId: text(object.client_reference_id) || text(metadata.userId),
        planId: text(metadata.planId),
        customerId: idOf(object.customer),
        subscriptionId: idOf(object.subscription),
        paid: text(object.payment_status) !== "unpaid",
        messages: Number.parseInt(text(metadata.messages), 10) || 0,
      };
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      return {
        kind: type === "customer.subscription.deleted" ? "subscription_deleted" : "subscription_changed",
        id,
        type,
        ...readSubscription(object),
      };
    }
    case "invoice.paid": {
      const lines = record(object.lines).data;
      const line = Array.isArray(lines) ? record(lines[0]) : {};
      return {
        kind: "invoice_paid",
        id,
        type,
        userId: text(record(record(record(object.parent).subscription_details).metadata).userId),
        customerId: idOf(object.customer),
        subscriptionId: invoiceSubscription(object),
        priceId: invoicePrice(object),
        status: text(object.status),
        endsAt: null,
        periodEnd: seconds(record(line.period).end),
      };
    }
    default:
      return { kind: "ignored", id, type };
  }
}
