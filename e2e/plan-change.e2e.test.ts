import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Envelope, LoginData, SessionUser } from "../common/api";
import { startTestServer } from "../server/testing/server";
import {
  type StripeDouble,
  signedEvent,
  startStripeDouble,
  TEST_STRIPE_KEY,
  TEST_WEBHOOK_SECRET,
} from "../server/testing/stripe-server";
import { closePage, hasChromium, launchBrowser, openPage, storeSession } from "./support/browser";

/**
 * A plan change seen by the SPA without signing out (issue 9), in Chromium against the real
 * server and a local server that speaks Stripe's API: Subscribe on /pricing goes to Stripe
 * Checkout; the signed webhook upgrades the user; back on the profile the plan, chat limit and
 * the stored flags are the new plan's, and the character form shows the photo field. A plan
 * changed elsewhere (an admin) reaches the SPA on the next token extend.
 */

if (!hasChromium) console.warn("plan-change e2e skipped: /usr/bin/chromium does not exist");

const TIMEOUT = 90_000;
const PRICE_BASIC = "price_basic_e2e";

describe.skipIf(!hasChromium)("plan changes in the SPA", () => {
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  let browser: Browser | undefined;
  let stripe: StripeDouble | undefined;

  beforeAll(async () => {
    stripe = await startStripeDouble();
    [server, browser] = await Promise.all([
      startTestServer({
        env: {
          LLM_PROVIDER: "none",
          STRIPE_SECRET_KEY: TEST_STRIPE_KEY,
          STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
          STRIPE_API_BASE: stripe.url,
        },
      }),
      launchBrowser(),
    ]);
    await server.db
      .updateTable("plans")
      .set({ stripe_price_id: PRICE_BASIC })
      .where("name", "=", "Basic Plan")
      .execute();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await stripe?.close();
  });

  const base = (): string => {
    if (server === undefined) throw new Error("server did not start");
    return server.url;
  };

  const member = async (email: string): Promise<LoginData> => {
    if (server === undefined) throw new Error("server did not start");
    await server.createMember(email, "plan e2e password");
    const answer = await fetch(`${base()}/api/auth/login`, {
      method: "POST",
      body: new URLSearchParams({ id: "", email, password: "plan e2e password" }),
    });
    const envelope = (await answer.json()) as Envelope<LoginData>;
    if (envelope.success !== 1 || envelope.data === undefined) throw new Error(envelope.message);
    return envelope.data;
  };

  const openSignedIn = async (session: LoginData, path: string): Promise<Page> => {
    if (browser === undefined) throw new Error("browser did not start");
    const page = await openPage(browser);
    // The hosted Stripe pages are not reachable here: answer them with a stand-in page.
    await page.route(/^https:\/\/(checkout|billing)\.stripe\.test\//, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Stripe (test stand-in)</h1>" }),
    );
    await page.goto(`${base()}/maintenance`);
    await storeSession(page, session);
    await page.goto(`${base()}${path}`);
    return page;
  };

  const storedUser = (page: Page) =>
    page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null") as SessionUser | null);
  const photoField = (page: Page) => page.getByLabel("Photo", { exact: true });

  it(
    "subscribe on /pricing through Checkout; after the webhook the profile and the flags are the new plan's",
    async () => {
      const session = await member("buyer@example.com");
      const page = await openSignedIn(session, "/characters/add");
      await page.getByLabel("Name", { exact: true }).waitFor();
      expect(await photoField(page).count()).toBe(0);

      await page.goto(`${base()}/pricing`);
      await page.getByText("Your current plan").waitFor();
      // Only plans sold through Stripe have a Subscribe button.
      expect(await page.getByRole("button", { name: /^Subscribe to/ }).count()).toBe(1);
      await page.getByRole("button", { name: "Subscribe to Basic Plan" }).click();
      await page.waitForURL(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
      const sent = stripe?.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1);
      expect(sent?.params).toMatchObject({
        mode: "subscription",
        line_items: { "0": { price: PRICE_BASIC } },
        client_reference_id: session.user.id,
      });

      // Stripe confirms the payment with a signed webhook.
      const plan = await server?.db
        .selectFrom("plans")
        .select("id")
        .where("name", "=", "Basic Plan")
        .executeTakeFirstOrThrow();
      const event = signedEvent("checkout.session.completed", {
        id: "cs_test_e2e",
        object: "checkout.session",
        mode: "subscription",
        payment_status: "paid",
        client_reference_id: session.user.id,
        customer: "cus_e2e",
        subscription: "sub_e2e",
        metadata: { userId: session.user.id, planId: plan?.id, purpose: "subscription" },
      });
      const hook = await fetch(`${base()}/api/payment/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": event.signature },
        body: event.payload,
      });
      expect(hook.status).toBe(200);

      // Back from Checkout (the success URL): no sign-out, yet the new plan shows everywhere.
      await page.goto(`${base()}/user/profile?checkout=success`);
      await expect
        .poll(() => page.getByLabel("Plan", { exact: true }).inputValue(), { timeout: 15_000 })
        .toBe("Basic Plan");
      expect(await page.getByLabel("Chat Limit", { exact: true }).inputValue()).toBe("1000");
      await expect.poll(async () => (await storedUser(page))?.pl, { timeout: 15_000 }).toBe("1");
      await page.getByRole("button", { name: "Buy 100 messages for $1.99" }).waitFor();

      await page.goto(`${base()}/characters/add`);
      await photoField(page).waitFor();

      await page.goto(`${base()}/pricing`);
      const current = page.getByRole("listitem").filter({ hasText: "Your current plan" });
      await current.getByRole("link", { name: /^Basic Plan, Price/ }).waitFor();

      // Manage subscription opens the Stripe portal for this customer.
      await page.goto(`${base()}/user/profile`);
      await page.getByRole("button", { name: "Manage subscription" }).click();
      await page.waitForURL(/^https:\/\/billing\.stripe\.test\/p\/session\//);
      expect(stripe?.requests.at(-1)).toMatchObject({
        path: "/v1/billing_portal/sessions",
        params: { customer: "cus_e2e" },
      });
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "a plan changed elsewhere reaches the SPA on the next token extend, without signing out",
    async () => {
      const session = await member("later@example.com");
      const page = await openSignedIn(session, "/characters/add");
      await page.getByLabel("Name", { exact: true }).waitFor();
      expect(await photoField(page).count()).toBe(0);

      // An admin grants Premium through the admin API (e.g. bought on an external membership site).
      const admin = await member("granter@example.com");
      await server?.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.user.id).execute();
      const premium = await server?.db
        .selectFrom("plans")
        .selectAll()
        .where("name", "=", "Premium")
        .executeTakeFirstOrThrow();
      const grant = await fetch(`${base()}/api/admin/users/${session.user.id}/plan`, {
        method: "POST",
        headers: { authorization: `Bearer ${admin.token}` },
        body: new URLSearchParams({ plan: premium?.id ?? "" }),
      });
      expect(((await grant.json()) as Envelope).success).toBe(1);
      // Nothing changes in the open page until the token is extended…
      expect((await storedUser(page))?.pl).toBe("0");
      // …which the SPA does when under 5 minutes are left (spec 4); let that time come.
      await page.evaluate(() => {
        const token = JSON.parse(localStorage.getItem("token") ?? "{}") as { token: string };
        localStorage.setItem(
          "token",
          JSON.stringify({ token: token.token, expirationTime: Date.now() + 60_000 }),
        );
      });
      await page.reload();
      await photoField(page).waitFor({ timeout: 15_000 });
      expect(await storedUser(page)).toMatchObject({
        id: session.user.id,
        pl: "1",
        cl: premium?.character_limit,
      });
      const token = await page.evaluate(
        () => JSON.parse(localStorage.getItem("token") ?? "{}") as { expirationTime: number },
      );
      expect(token.expirationTime).toBeGreaterThan(Date.now() + 50 * 60_000);
      await closePage(page);
    },
    TIMEOUT,
  );
});
