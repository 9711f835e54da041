// Plans and payments (product.md §1, §9): checkout of monthly plans and the add-on, the customer portal, webhook events changing a plan.
import { ADDON_MESSAGES, ADDON_PRICE_CENTS } from "../../../common/constants";
import type { Plan, User } from "../../db/schema";
import { AppError, badRequest, notFound } from "../../errors";
import { english, msg } from "../../i18n/messages";
import {
  type PaymentEvent,
  type PaymentsProvider,
  WebhookSignatureError,
} from "../../providers/payments/payments";
import type { SessionDrops } from "../auth/auth.service";
import { FREE_PLAN_NAME, type PlansRepo } from "../plans/plans.repo";
import type { PaymentsRepo, Tx } from "./payments.repo";

/** product.md §9 "Payments": answered (success 0) when no payment provider is configured. */
export const PAYMENTS_OFF = msg("payments.onlinePaymentsNotAvailableMoment");
/** PAYMENTS_OFF in English, as the API sends it. */
export const PAYMENTS_OFF_MESSAGE = english(PAYMENTS_OFF);

/** Subscription states in which the plan is paid for (Stripe's `status`). */
const PAID_STATUSES = new Set(["active", "trialing", "past_due"]);
/** Subscription states in which the plan has ended. */
const ENDED_STATUSES = new Set(["canceled", "unpaid", "incomplete_expired"]);

/** What a webhook delivery did. */
export interface WebhookResult {
  eventId: string;
  /** True when this event id was already applied: nothing changed this time. */
  duplicate: boolean;
  outcome: string;
}

/**
 * What the signed-in user can buy or manage here (no Buy or Manage button that fails).
 */
export interface PaymentOptions {
  /** Online payments are configured (a Stripe key). */
  payments: boolean;
  /**
   * The add-on can be bought: payments on, a member (not a guest), a monthly plan (product.md §9: the
   * add-on is for the monthly limit; the SPA offers it up front once `atLimit`).
   */
  addOn: boolean;
  /** The Customer Portal can open: payments on and the user has paid online before. */
  manage: boolean;
  /** The user's plan counts messages per month (the add-on exists only for those, product.md §9). */
  monthly: boolean;
  /** This period's messages are all used (plan count at or over the plan's limit). */
  atLimit: boolean;
}

/** A plan as the pricing page and the checkout see it. */
export interface PricedPlan {
  plan: Plan;
  /** Sold through the payment provider's checkout (it has a price id and payments are on). */
  checkout: boolean;
  /** The signed-in user's current plan. */
  current: boolean;
}

/**
 * Plans and payments (product.md §1, 2 "Pricing", 9): checkout for the monthly plans and the
 * one-time add-on, the customer portal for cancellation, and the webhook events that change a
 * user's plan. Upgrades take effect at once; a cancellation keeps the plan until the end of the
 * paid period, then the user is on Free; no refunds (nothing is ever taken back). A plan without
 * a provider price (e.g. sold on an external membership site, its URL) is granted by an admin.
 * Every webhook event is stored once by its id, in the same transaction as its effect, so the
 * same event delivered twice changes the plan once.
 */
export class PaymentsService {
  constructor(
    private readonly repo: PaymentsRepo,
    private readonly plans: PlansRepo,
    private readonly provider: PaymentsProvider,
    private readonly options: { publicUrl: string },
    /**
     * The cached sessions, which hold the user's row: a plan or add-on written here drops that
     * user's, so it holds at once in this process (the rule of server/db/short-cache.ts).
     */
    private readonly sessions: SessionDrops,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether online payments are configured. */
  get enabled(): boolean {
    return this.provider.enabled;
  }

  /** The plans in display order, with what the signed-in user (if any) can do with each. */
  async pricing(user?: User): Promise<PricedPlan[]> {
    const plans = await this.plans.list();
    return plans.map((plan) => ({
      plan,
      checkout: this.provider.enabled && plan.stripe_price_id !== "",
      current: user?.plan_id === plan.id,
    }));
  }

  /**
   * What `user` can buy or manage now (product.md §9: the add-on when the monthly limit is
   * reached, so the add-on needs a monthly plan). The count is this period's (a count of an earlier month reads as 0).
   */
  paymentOptions(user: User): PaymentOptions {
    const monthly = user.quota_period === "month";
    const period = new Date(this.now()).toISOString().slice(0, monthly ? 7 : 10);
    const count = user.chat_period === period ? user.chat_count : 0;
    const atLimit = count >= user.chat_limit;
    const payments = this.provider.enabled;
    return {
      payments,
      addOn: payments && !user.is_demo && monthly,
      manage: payments && user.stripe_customer_id !== "",
      monthly,
      atLimit,
    };
  }

  private requireEnabled(): void {
    if (!this.provider.enabled) throw new AppError("payments_off", PAYMENTS_OFF);
  }

  private requireMember(user: User): void {
    if (user.is_demo) {
      throw new AppError("demo_account", msg("payments.guestAccountsCannotBuyPlans"), "/login");
    }
  }

  private payer(user: User) {
    return { userId: user.id, email: user.email, customerId: user.stripe_customer_id };
  }

  /**
   * Starts the checkout of a monthly plan.
   * @returns the hosted checkout URL to send the browser to.
   * @throws AppError success 0 when payments are off, for a guest account, for a plan that is
   *   not sold online (page: the plan's own URL), or while a subscription runs (changed in the
   *   portal instead); 404 for an unknown plan.
   */
  async checkout(user: User, planId: string): Promise<string> {
    this.requireEnabled();
    this.requireMember(user);
    const plan = await this.plans.findById(planId);
    if (!plan) throw notFound(msg("models.planDoesNotExist"));
    if (!plan.stripe_price_id) {
      throw new AppError(
        "not_sold_online",
        msg("payments.notSoldHereSeePage", { name: plan.name }),
        plan.url,
      );
    }
    // A second subscription would bill twice: a running one is changed in the portal instead.
    if (user.stripe_subscription_id && user.plan_ends_at === null) {
      throw new AppError(
        "already_subscribed",
        plan.id === user.plan_id
          ? msg("payments.already", { name: plan.name })
          : msg("payments.alreadyHaveSubscriptionChangeCancel"),
        "/user/profile",
      );
    }
    const page = await this.provider.createSubscriptionCheckout({
      payer: this.payer(user),
      planId: plan.id,
      priceId: plan.stripe_price_id,
      successUrl: `${this.options.publicUrl}/user/profile?checkout=success`,
      cancelUrl: `${this.options.publicUrl}/pricing`,
    });
    return page.url;
  }

  /**
   * Starts the checkout of the add-on (product.md §9: 100 messages for $1.99), used after the plan's limit.
   * @returns the hosted checkout URL.
   * @throws AppError success 0 when payments are off or for a guest account.
   */
  async addOn(user: User): Promise<string> {
    this.requireEnabled();
    this.requireMember(user);
    const page = await this.provider.createAddOnCheckout({
      payer: this.payer(user),
      messages: ADDON_MESSAGES,
      amountCents: ADDON_PRICE_CENTS,
      successUrl: `${this.options.publicUrl}/user/profile?checkout=success`,
      cancelUrl: `${this.options.publicUrl}/user/profile`,
    });
    return page.url;
  }

  /**
   * Opens the customer portal, where the subscription is cancelled (access lasts to the end of
   * the paid period, product.md §9).
   * @throws AppError success 0 when payments are off or the user never paid online.
   */
  async portal(user: User): Promise<string> {
    this.requireEnabled();
    if (!user.stripe_customer_id) {
      throw new AppError("no_subscription", msg("payments.haveNoOnlineSubscriptionManage"), "/pricing");
    }
    const page = await this.provider.createPortalSession({
      customerId: user.stripe_customer_id,
      returnUrl: `${this.options.publicUrl}/user/profile`,
    });
    return page.url;
  }

  /**
   * Verifies and applies one webhook delivery.
   * @param rawBody the request body exactly as received (the signature covers its bytes).
   * @throws AppError 400 "bad_signature" for a missing, forged or too old signature (the event
   *   is not stored); 400 when payments are off.
   */
  async handleWebhook(rawBody: Buffer, signature: string): Promise<WebhookResult> {
    if (!this.provider.enabled) throw badRequest(PAYMENTS_OFF, "webhook_off");
    let event: PaymentEvent;
    try {
      event = this.provider.verifyWebhook(rawBody, signature);
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        throw badRequest(msg("payments.webhookRefused", { message: error.message }), "bad_signature");
      }
      throw error;
    }
    return this.apply(await this.withLiveState(event), rawBody.toString("utf8"));
  }

  /**
   * Stripe does not deliver events in order: a subscription event is applied with the
   * subscription's current state, fetched before the transaction (a failure answers 500 and
   * Stripe retries). The event's own snapshot is used when the provider does not know the id.
   */
  private async withLiveState(event: PaymentEvent): Promise<PaymentEvent> {
    if (event.kind === "ignored" || event.kind === "checkout_completed" || !event.subscriptionId)
      return event;
    const live = await this.provider.retrieveSubscription(event.subscriptionId);
    if (!live) return event;
    return {
      ...event,
      // With the full current state, a paid invoice is handled like a subscription update.
      kind: event.kind === "subscription_deleted" ? "subscription_deleted" : "subscription_changed",
      userId: event.userId || live.userId,
      customerId: event.customerId || live.customerId,
      priceId: live.priceId || event.priceId,
      status: live.status,
      endsAt: live.endsAt,
      periodEnd: live.periodEnd,
    };
  }

  /**
   * Applies a verified event once: the event row and its effect commit together, so a
   * redelivery (same id) changes nothing and a failure leaves no row (the provider retries).
   */
  async apply(event: PaymentEvent, payload: string): Promise<WebhookResult> {
    // The user whose row the event changed (set in the transaction).
    let changed = null as string | null;
    const result = await this.repo.inTransaction(async (trx): Promise<WebhookResult> => {
      const row = {
        id: event.id,
        provider: this.provider.name,
        type: event.type,
        payload,
        created_at: this.now(),
      };
      if (!(await this.repo.recordEvent(trx, row))) {
        return { eventId: event.id, duplicate: true, outcome: "duplicate" };
      }
      const { outcome, userId } = await this.effect(event, trx);
      await this.repo.setEventOutcome(trx, event.id, outcome, userId);
      changed = userId;
      return { eventId: event.id, duplicate: false, outcome };
    });
    // After the commit: a read before it would cache the row as it was.
    if (changed !== null) this.sessions.userChanged(changed);
    return result;
  }

  private async effect(event: PaymentEvent, trx: Tx): Promise<{ outcome: string; userId: string | null }> {
    if (event.kind === "ignored") return { outcome: "ignored", userId: null };
    const user = await this.repo.findEventUser(trx, event.userId, event.subscriptionId, event.customerId);
    if (!user) return { outcome: "unknown user", userId: null };
    const now = this.now();
    const customer = event.customerId || user.stripe_customer_id;

    if (event.kind === "checkout_completed") {
      if (!event.paid) return { outcome: "not paid yet", userId: user.id };
      if (event.purpose === "addon") {
        const messages = event.messages > 0 ? event.messages : ADDON_MESSAGES;
        await this.repo.addExtraMessages(trx, user.id, messages, customer);
        return { outcome: `add-on +${messages}`, userId: user.id };
      }
      const plan = await this.plans.findById(event.planId, trx);
      if (!plan) return { outcome: "unknown plan", userId: user.id };
      await this.plans.setUserPlan(
        user.id,
        plan,
        now,
        { stripe_customer_id: customer, stripe_subscription_id: event.subscriptionId, plan_ends_at: null },
        trx,
      );
      return { outcome: `plan ${plan.name}`, userId: user.id };
    }

    // Events of an older subscription (the user has moved to another one) change nothing.
    if (user.stripe_subscription_id && user.stripe_subscription_id !== event.subscriptionId) {
      return { outcome: "other subscription", userId: user.id };
    }
    if (event.kind === "subscription_deleted" || ENDED_STATUSES.has(event.status)) {
      await this.toFree(user.id, now, trx);
      return { outcome: "ended: Free", userId: user.id };
    }
    if (event.kind === "invoice_paid" || PAID_STATUSES.has(event.status)) {
      const plan =
        (await this.plans.findByStripePrice(event.priceId, trx)) ??
        (await this.plans.findById(user.plan_id, trx));
      if (!plan) return { outcome: "unknown plan", userId: user.id };
      await this.plans.setUserPlan(
        user.id,
        plan,
        now,
        {
          stripe_customer_id: customer,
          stripe_subscription_id: event.subscriptionId,
          // A renewal invoice says nothing about cancellation; a subscription update does.
          ...(event.kind === "subscription_changed" ? { plan_ends_at: event.endsAt } : {}),
        },
        trx,
      );
      const ends = event.kind === "subscription_changed" && event.endsAt !== null;
      return {
        outcome: ends
          ? `plan ${plan.name} until ${new Date(event.endsAt ?? 0).toISOString()}`
          : `plan ${plan.name}`,
        userId: user.id,
      };
    }
    return { outcome: `status ${event.status}: no change`, userId: user.id };
  }

  private async toFree(userId: string, now: number, db: Tx): Promise<void> {
    const free = await this.plans.findByName(FREE_PLAN_NAME, db);
    if (!free) throw new Error("The Free plan is missing: the database was not seeded.");
    await this.plans.setUserPlan(userId, free, now, { stripe_subscription_id: "", plan_ends_at: null }, db);
  }

  /**
   * Moves users whose cancelled plan has reached the end of its paid period to Free (in case the
   * provider's "deleted" event is late or lost). Run every minute as the scheduled job
   * "payments.expire-ended-plans" (server/container.ts).
   * @returns how many users were moved.
   */
  async expireEndedPlans(now: number = this.now()): Promise<number> {
    const ended = await this.repo.usersWithEndedPlans(now);
    for (const id of ended) {
      await this.repo.inTransaction((trx) => this.toFree(id, now, trx));
      this.sessions.userChanged(id);
    }
    return ended.length;
  }
}
