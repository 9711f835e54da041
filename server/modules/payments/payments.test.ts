import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../common/api";
import { call, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";
import {
  type StripeDouble,
  signedEvent,
  startStripeDouble,
  stripeSubscription,
  TEST_STRIPE_KEY,
  TEST_WEBHOOK_SECRET,
} from "../../testing/stripe-server";
import { PAYMENTS_OFF_MESSAGE } from "./payments.service";

/**
 * Plans and payments against a local server that speaks Stripe's API (the SDK pointed at it with
 * STRIPE_API_BASE) and webhooks signed with the SDK's own `generateTestHeaderString`.
 */

const PRICE_BASIC = "price_basic_monthly";
const PRICE_PREMIUM = "price_premium_monthly";
const PRICE_PLUS = "price_premium_plus_monthly";

interface PricingRow {
  pricingPlanName: string;
  pricingPlanUUID: string;
  pricingCheckout: number;
  pricingCurrent: number;
  pricingUrl: string;
}

describeEachDatabase("plans and payments through Stripe", (dialect) => {
  let t: TestApp;
  let stripe: StripeDouble;
  const plans: Record<string, string> = {};
  let counter = 0;

  beforeAll(async () => {
    stripe = await startStripeDouble();
    t = await createTestApp({
      dialect,
      env: {
        STRIPE_SECRET_KEY: TEST_STRIPE_KEY,
        STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        STRIPE_API_BASE: stripe.url,
        PUBLIC_URL: "http://app.test",
      },
    });
    for (const [name, price] of [
      ["Basic Plan", PRICE_BASIC],
      ["Premium", PRICE_PREMIUM],
      ["Premium Plus", PRICE_PLUS],
    ] as const) {
      await t.db.db.updateTable("plans").set({ stripe_price_id: price }).where("name", "=", name).execute();
    }
    for (const plan of await t.db.db.selectFrom("plans").select(["id", "name"]).execute()) {
      plans[plan.name] = plan.id;
    }
  });
  afterAll(async () => {
    await t?.dispose();
    await stripe?.close();
  });

  /** A member on Free, signed in with a password. */
  async function member() {
    counter += 1;
    const email = `payer${counter}-${dialect}@example.com`;
    const user = await t.auth.createAccount({
      email,
      password: "secret-pass-1",
      fullName: "Payer",
      planName: "Free",
    });
    const login = await call(t.app, "POST", "/api/auth/login", {
      form: { email, password: "secret-pass-1" },
    });
    return { userId: user.id, email, token: (login.body.data as { token: string }).token };
  }

  const webhook = (event: { payload: string; signature: string }) =>
    t.app.inject({
      method: "POST",
      url: "/api/payment/webhook",
      headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": event.signature },
      payload: event.payload,
    });

  const profile = async (token: string) =>
    (await call(t.app, "GET", "/api/users/profile/", { token })).body.data as {
      pricingPlanName: string;
      chatLimit: number;
      chatCount: number;
    };
  const extendUser = async (token: string) =>
    ((await call(t.app, "POST", "/api/auth/extend", { token })).body.data as { user: SessionUser }).user;
  const pricing = async (token?: string) =>
    (await call(t.app, "GET", "/api/payment/pricing", { token })).body.data as PricingRow[];
  const userRow = (id: string) =>
    t.db.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  function checkoutCompleted(
    userId: string,
    planName: string,
    ids: { customer: string; subscription: string },
  ): Record<string, unknown> {
    return {
      id: `cs_test_${ids.subscription}`,
      object: "checkout.session",
      mode: "subscription",
      status: "complete",
      payment_status: "paid",
      client_reference_id: userId,
      customer: ids.customer,
      subscription: ids.subscription,
      metadata: { userId, planId: plans[planName], purpose: "subscription" },
    };
  }

  async function subscribe(planName: string) {
    const m = await member();
    const ids = { customer: `cus_${m.userId.slice(0, 8)}`, subscription: `sub_${m.userId.slice(0, 8)}` };
    const res = await webhook(
      signedEvent("checkout.session.completed", checkoutCompleted(m.userId, planName, ids)),
    );
    expect(res.statusCode).toBe(200);
    return { ...m, ...ids };
  }

  it("subscribe: Checkout is created through the SDK, the webhook changes plan and flags at once", async () => {
    const m = await member();
    expect((await extendUser(m.token)).pl).toBe("0");

    const checkout = await call(t.app, "POST", "/api/payment/checkout", {
      token: m.token,
      form: { plan: plans.Premium! },
    });
    expect(checkout.body.success).toBe(1);
    const url = (checkout.body.data as { url: string }).url;
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const sent = stripe.requests.at(-1)!;
    expect(sent).toMatchObject({
      method: "POST",
      path: "/v1/checkout/sessions",
      authorization: `Bearer ${TEST_STRIPE_KEY}`,
    });
    expect(sent.params).toMatchObject({
      mode: "subscription",
      line_items: { "0": { price: PRICE_PREMIUM, quantity: "1" } },
      client_reference_id: m.userId,
      customer_email: m.email,
      metadata: { userId: m.userId, planId: plans.Premium },
      subscription_data: { metadata: { userId: m.userId } },
      success_url: "http://app.test/user/profile?checkout=success",
      cancel_url: "http://app.test/pricing",
    });
    // Nothing changes before Stripe says it is paid.
    expect((await profile(m.token)).pricingPlanName).toBe("Free");

    const ids = { customer: "cus_subscribe", subscription: "sub_subscribe" };
    const res = await webhook(
      signedEvent("checkout.session.completed", checkoutCompleted(m.userId, "Premium", ids)),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: 1, data: { duplicate: false, outcome: "plan Premium" } });

    expect(await profile(m.token)).toMatchObject({
      pricingPlanName: "Premium",
      chatLimit: 3000,
      chatCount: 0,
    });
    expect(await extendUser(m.token)).toMatchObject({ id: m.userId, cl: 10, vl: 5, pl: "1", il: "0" });
    const rows = await pricing(m.token);
    expect(rows.filter((p) => p.pricingCurrent === 1).map((p) => p.pricingPlanName)).toEqual(["Premium"]);
    expect(rows.find((p) => p.pricingPlanName === "Premium")?.pricingCheckout).toBe(1);
    expect(rows.find((p) => p.pricingPlanName === "Free")?.pricingCheckout).toBe(0);
    // Signed out, no plan is marked.
    expect((await pricing()).every((p) => p.pricingCurrent === 0)).toBe(true);
    const row = await userRow(m.userId);
    expect(row).toMatchObject({
      stripe_customer_id: "cus_subscribe",
      stripe_subscription_id: "sub_subscribe",
    });
    const logged = await t.db.db
      .selectFrom("payment_events")
      .selectAll()
      .where("user_id", "=", m.userId)
      .execute();
    expect(logged.map((e) => [e.type, e.outcome])).toEqual([["checkout.session.completed", "plan Premium"]]);

    // A second subscription would bill twice: while one runs, plans change in the portal.
    const sessions = stripe.requests.length;
    const again = await call(t.app, "POST", "/api/payment/checkout", {
      token: m.token,
      form: { plan: plans["Basic Plan"]! },
    });
    expect(again.body).toMatchObject({ success: 0, page: "/user/profile" });
    expect(stripe.requests.length).toBe(sessions);
  });

  it("events out of order: the subscription's current state at Stripe decides, not the event's snapshot", async () => {
    const m = await subscribe("Premium");
    const now = Math.floor(Date.now() / 1000);
    const snapshot = (status: string, priceId: string) =>
      stripeSubscription({
        id: m.subscription,
        customer: m.customer,
        priceId,
        userId: m.userId,
        status,
        periodEnd: now + 86_400,
      });

    // Stripe now holds: moved to Premium Plus, cancelled at the period end; a late event still says Basic.
    stripe.subscriptions.set(
      m.subscription,
      stripeSubscription({
        id: m.subscription,
        customer: m.customer,
        priceId: PRICE_PLUS,
        userId: m.userId,
        cancelAtPeriodEnd: true,
        periodEnd: now + 5 * 86_400,
      }),
    );
    await webhook(signedEvent("customer.subscription.updated", snapshot("active", PRICE_BASIC)));
    expect(stripe.requests.at(-1)).toMatchObject({
      method: "GET",
      path: `/v1/subscriptions/${m.subscription}`,
    });
    expect(await profile(m.token)).toMatchObject({ pricingPlanName: "Premium Plus" });
    expect((await userRow(m.userId)).plan_ends_at).toBe((now + 5 * 86_400) * 1000);

    // Deleted, then a stale "active" update arrives: the user stays on Free.
    stripe.subscriptions.set(m.subscription, snapshot("canceled", PRICE_PLUS));
    await webhook(signedEvent("customer.subscription.deleted", snapshot("canceled", PRICE_PLUS)));
    expect((await profile(m.token)).pricingPlanName).toBe("Free");
    await webhook(signedEvent("customer.subscription.updated", snapshot("active", PRICE_PREMIUM)));
    expect((await profile(m.token)).pricingPlanName).toBe("Free");
    expect((await extendUser(m.token)).pl).toBe("0");
  });

  it("upgrade through the portal (subscription updated to another price) applies at once", async () => {
    const m = await subscribe("Basic Plan");
    expect((await profile(m.token)).pricingPlanName).toBe("Basic Plan");
    const periodEnd = Math.floor(Date.now() / 1000) + 20 * 86_400;
    const upgraded = stripeSubscription({
      id: m.subscription,
      customer: m.customer,
      priceId: PRICE_PLUS,
      userId: m.userId,
      periodEnd,
    });
    expect((await webhook(signedEvent("customer.subscription.updated", upgraded))).statusCode).toBe(200);
    expect(await profile(m.token)).toMatchObject({ pricingPlanName: "Premium Plus", chatLimit: 6000 });
    expect(await extendUser(m.token)).toMatchObject({ cl: 20, pl: "1", il: "1" });
    expect((await userRow(m.userId)).uncensored).toBe(1);
  });

  it("cancel: the plan lasts until the end of the paid period, then the user is on Free", async () => {
    const m = await subscribe("Premium");
    const portal = await call(t.app, "POST", "/api/payment/portal", { token: m.token });
    expect((portal.body.data as { url: string }).url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    expect(stripe.requests.at(-1)).toMatchObject({
      path: "/v1/billing_portal/sessions",
      params: { customer: m.customer, return_url: "http://app.test/user/profile" },
    });

    const periodEnd = Math.floor(Date.now() / 1000) + 10 * 86_400;
    const cancelled = stripeSubscription({
      id: m.subscription,
      customer: m.customer,
      priceId: PRICE_PREMIUM,
      userId: m.userId,
      cancelAtPeriodEnd: true,
      periodEnd,
    });
    expect((await webhook(signedEvent("customer.subscription.updated", cancelled))).statusCode).toBe(200);
    // Still Premium: access lasts to the end of the billing cycle (product.md §9), no refund.
    expect((await profile(m.token)).pricingPlanName).toBe("Premium");
    expect((await extendUser(m.token)).pl).toBe("1");
    expect((await userRow(m.userId)).plan_ends_at).toBe(periodEnd * 1000);

    expect(await t.payments.expireEndedPlans(periodEnd * 1000 - 1)).toBe(0);
    expect((await profile(m.token)).pricingPlanName).toBe("Premium");
    expect(await t.payments.expireEndedPlans(periodEnd * 1000)).toBeGreaterThanOrEqual(1);
    expect(await profile(m.token)).toMatchObject({ pricingPlanName: "Free", chatLimit: 15 });
    expect(await extendUser(m.token)).toMatchObject({ pl: "0", il: "0", cl: 3 });
    expect(await userRow(m.userId)).toMatchObject({ plan_ends_at: null, stripe_subscription_id: "" });
  });

  it("the subscription's deletion at the period end puts the user on Free; a stale one of an old subscription does not", async () => {
    const m = await subscribe("Premium");
    const old = stripeSubscription({
      id: "sub_some_older_one",
      customer: m.customer,
      priceId: PRICE_BASIC,
      userId: m.userId,
      status: "canceled",
      periodEnd: Math.floor(Date.now() / 1000),
    });
    await webhook(signedEvent("customer.subscription.deleted", old));
    expect((await profile(m.token)).pricingPlanName).toBe("Premium");

    const ended = stripeSubscription({
      id: m.subscription,
      customer: m.customer,
      priceId: PRICE_PREMIUM,
      userId: m.userId,
      status: "canceled",
      periodEnd: Math.floor(Date.now() / 1000),
    });
    await webhook(signedEvent("customer.subscription.deleted", ended));
    expect(await profile(m.token)).toMatchObject({ pricingPlanName: "Free", chatLimit: 15 });
  });

  it("invoice.paid (a renewal) keeps the user on the subscription's plan", async () => {
    const m = await subscribe("Basic Plan");
    await t.db.db
      .updateTable("users")
      .set({ plan_id: plans.Free!, photo_upload: 0 })
      .where("id", "=", m.userId)
      .execute();
    const invoice = {
      id: "in_renewal",
      object: "invoice",
      status: "paid",
      customer: m.customer,
      parent: {
        type: "subscription_details",
        subscription_details: { subscription: m.subscription, metadata: { userId: m.userId } },
      },
      lines: {
        object: "list",
        data: [
          {
            id: "il_1",
            object: "line_item",
            period: { start: 1, end: Math.floor(Date.now() / 1000) + 30 * 86_400 },
            pricing: { type: "price_details", price_details: { price: PRICE_BASIC, product: "prod_basic" } },
          },
        ],
      },
    };
    expect((await webhook(signedEvent("invoice.paid", invoice))).statusCode).toBe(200);
    expect((await profile(m.token)).pricingPlanName).toBe("Basic Plan");
    expect((await extendUser(m.token)).pl).toBe("1");
  });

  it("add-on: a one-time Checkout of 100 messages for $1.99; the paid session adds 100 once", async () => {
    const m = await member();
    const res = await call(t.app, "POST", "/api/payment/addon", { token: m.token });
    expect(res.body.success).toBe(1);
    expect(stripe.requests.at(-1)?.params).toMatchObject({
      mode: "payment",
      line_items: { "0": { quantity: "1", price_data: { currency: "usd", unit_amount: "199" } } },
      client_reference_id: m.userId,
      metadata: { purpose: "addon", messages: "100" },
    });
    const paid = signedEvent("checkout.session.completed", {
      id: "cs_test_addon",
      object: "checkout.session",
      mode: "payment",
      payment_status: "paid",
      client_reference_id: m.userId,
      customer: "cus_addon",
      metadata: { userId: m.userId, purpose: "addon", messages: "100" },
    });
    expect((await webhook(paid)).statusCode).toBe(200);
    expect((await userRow(m.userId)).extra_messages).toBe(100);
    // The same event delivered again (Stripe retries) is applied once.
    const again = await webhook(paid);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ success: 1, data: { duplicate: true } });
    expect((await userRow(m.userId)).extra_messages).toBe(100);
    // A second purchase (another event) adds another 100.
    const second = signedEvent("checkout.session.completed", {
      id: "cs_test_addon2",
      object: "checkout.session",
      mode: "payment",
      payment_status: "paid",
      client_reference_id: m.userId,
      metadata: { userId: m.userId, purpose: "addon", messages: "100" },
    });
    // Delivered five times at once (retries racing): still applied once.
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => webhook(second)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => (a.json() as { data: { duplicate: boolean } }).data.duplicate)).toHaveLength(
      4,
    );
    expect((await userRow(m.userId)).extra_messages).toBe(200);
  });

  it("options: the add-on only on a monthly plan, its limit reported; Manage only after paying online", async () => {
    const m = await member();
    const options = async () => (await call(t.app, "GET", "/api/payment/options", { token: m.token })).body;
    // Free counts per day: payments on, no add-on (product.md §9: the add-on is for the monthly limit).
    expect(await options()).toMatchObject({
      success: 1,
      data: { payments: 1, addOn: 0, manage: 0, monthly: 0 },
    });
    const month = new Date().toISOString().slice(0, 7);
    await t.db.db
      .updateTable("users")
      .set({ quota_period: "month", chat_limit: 5, chat_count: 4, chat_period: month })
      .where("id", "=", m.userId)
      .execute();
    expect((await options()).data).toMatchObject({ addOn: 1, monthly: 1, atLimit: 0 });
    await t.db.db.updateTable("users").set({ chat_count: 5 }).where("id", "=", m.userId).execute();
    expect((await options()).data).toMatchObject({ addOn: 1, monthly: 1, atLimit: 1 });
    // A count of an earlier month is not this month's.
    await t.db.db.updateTable("users").set({ chat_period: "2000-01" }).where("id", "=", m.userId).execute();
    expect((await options()).data).toMatchObject({ addOn: 1, atLimit: 0 });
    await t.db.db
      .updateTable("users")
      .set({ stripe_customer_id: "cus_options" })
      .where("id", "=", m.userId)
      .execute();
    expect((await options()).data).toMatchObject({ manage: 1 });
    expect((await call(t.app, "GET", "/api/payment/options")).status).toBe(401);
  });

  it("forged, replayed and duplicated webhooks are refused or applied once", async () => {
    const m = await member();
    const object = checkoutCompleted(m.userId, "Premium Plus", { customer: "cus_f", subscription: "sub_f" });

    const forged = signedEvent("checkout.session.completed", object, { secret: "whsec_not_ours" });
    const forgedRes = await webhook(forged);
    expect(forgedRes.statusCode).toBe(400);
    expect(forgedRes.json()).toMatchObject({
      success: 0,
      message: expect.stringMatching(/^Webhook refused/),
    });

    const replayed = signedEvent("checkout.session.completed", object, {
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect((await webhook(replayed)).statusCode).toBe(400);

    const genuine = signedEvent("checkout.session.completed", object);
    // A genuine signature over a changed body.
    const tampered = {
      payload: genuine.payload.replace(m.userId, "someone-else"),
      signature: genuine.signature,
    };
    expect((await webhook(tampered)).statusCode).toBe(400);
    expect((await webhook({ payload: genuine.payload, signature: "" })).statusCode).toBe(400);

    for (const refused of [forged, replayed]) {
      const stored = await t.db.db
        .selectFrom("payment_events")
        .select("id")
        .where("id", "=", refused.id)
        .execute();
      expect(stored).toEqual([]);
    }
    expect((await profile(m.token)).pricingPlanName).toBe("Free");

    expect((await webhook(genuine)).json()).toMatchObject({ data: { duplicate: false } });
    expect((await profile(m.token)).pricingPlanName).toBe("Premium Plus");
    // An admin moves the user back; a redelivery of the same event must not undo that.
    await t.db.db.updateTable("users").set({ plan_id: plans.Free! }).where("id", "=", m.userId).execute();
    expect((await webhook(genuine)).json()).toMatchObject({ data: { duplicate: true } });
    expect((await profile(m.token)).pricingPlanName).toBe("Free");
    const rows = await t.db.db
      .selectFrom("payment_events")
      .select("id")
      .where("id", "=", genuine.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("plans without a Stripe price are granted, not sold here; guests cannot buy; no portal without a purchase", async () => {
    await t.db.db
      .updateTable("plans")
      .set({ stripe_price_id: "", url: "https://members.example.com/plus" })
      .where("name", "=", "Premium Plus")
      .execute();
    const m = await member();
    const res = await call(t.app, "POST", "/api/payment/checkout", {
      token: m.token,
      form: { plan: plans["Premium Plus"]! },
    });
    expect(res.body).toMatchObject({ success: 0, page: "https://members.example.com/plus" });
    expect((await pricing(m.token)).find((p) => p.pricingPlanName === "Premium Plus")?.pricingCheckout).toBe(
      0,
    );
    await t.db.db
      .updateTable("plans")
      .set({ stripe_price_id: PRICE_PLUS })
      .where("name", "=", "Premium Plus")
      .execute();

    const portal = await call(t.app, "POST", "/api/payment/portal", { token: m.token });
    expect(portal.body).toMatchObject({ success: 0, message: "You have no online subscription to manage." });

    const demo = await call(t.app, "POST", "/api/auth/demo-login", { form: { id: "demo" } });
    const demoToken = (demo.body.data as { token: string }).token;
    const guest = await call(t.app, "POST", "/api/payment/checkout", {
      token: demoToken,
      form: { plan: plans.Premium! },
    });
    expect(guest.body).toMatchObject({ success: 0, page: "/login" });
    expect(
      (await call(t.app, "POST", "/api/payment/checkout", { form: { plan: plans.Premium! } })).status,
    ).toBe(401);
  });
});

describe("payments off (no STRIPE_SECRET_KEY)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("answers success 0 with a clear message and sells nothing through checkout", async () => {
    const user = await t.auth.createAccount({
      email: "off@example.com",
      password: "secret-pass-1",
      fullName: "Off",
      planName: "Free",
    });
    const { token } = await t.auth.signInAs(user);
    const premium = await t.db.db
      .selectFrom("plans")
      .select("id")
      .where("name", "=", "Premium")
      .executeTakeFirstOrThrow();
    for (const [path, form] of [
      ["/api/payment/checkout", { plan: premium.id }],
      ["/api/payment/addon", undefined],
      ["/api/payment/portal", undefined],
    ] as const) {
      const res = await call(t.app, "POST", path, { token, form });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: 0, message: PAYMENTS_OFF_MESSAGE, code: "payments_off" });
    }
    const plans = (await call(t.app, "GET", "/api/payment/pricing")).body.data as PricingRow[];
    expect(plans.every((p) => p.pricingCheckout === 0)).toBe(true);
    // the SPA learns that nothing can be bought or managed here.
    await t.db.db
      .updateTable("users")
      .set({
        quota_period: "month",
        chat_limit: 1,
        chat_count: 1,
        chat_period: new Date().toISOString().slice(0, 7),
      })
      .where("id", "=", user.id)
      .execute();
    expect((await call(t.app, "GET", "/api/payment/options", { token })).body.data).toEqual({
      payments: 0,
      addOn: 0,
      manage: 0,
      monthly: 1,
      atLimit: 1,
    });
    const hook = await t.app.inject({ method: "POST", url: "/api/payment/webhook", payload: "{}" });
    expect(hook.statusCode).toBe(400);
  });
});
