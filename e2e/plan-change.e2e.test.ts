import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Envelope, LoginData, SessionUser } from "../common/api";
import {
  type StripeDouble,
  signedEvent,
  startStripeDouble,
  TEST_STRIPE_KEY,
  TEST_WEBHOOK_SECRET,
} from "../server/testing/stripe-server";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * A plan change seen by the SPA without signing out, in Chromium against the real
 * server and a local server that speaks Stripe's API: Subscribe on /pricing goes to Stripe
 * Checkout; the signed webhook upgrades the user; back on the profile the plan, chat limit and
 * the stored flags are the new plan's, and the character form shows the photo field. A plan
 * changed elsewhere (an admin) reaches the SPA on the next token extend.
 */

if (!hasChromium) console.warn("plan-change e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 90_000;
const PRICE_BASIC = "price_basic_e2e";

describe.skipIf(!hasChromium)("plan changes in the SPA", () => {
  let stripe: StripeDouble | undefined;

  beforeAll(async () => {
    stripe = await startStripeDouble();
  });

  afterAll(async () => {
    await stripe?.close();
  });

  const suite = useBrowserSuite({
    env: () => ({
      LLM_PROVIDER: "none",
      STRIPE_SECRET_KEY: TEST_STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe?.url ?? "",
    }),
  });

  beforeAll(async () => {
    await suite.server.db
      .updateTable("plans")
      .set({ stripe_price_id: PRICE_BASIC })
      .where("name", "=", "Basic Plan")
      .execute();
  });

  const base = (): string => suite.url;

  const member = (email: string): Promise<LoginData> => suite.member(email, "plan e2e password");

  const openSignedIn = (session: LoginData, path: string): Promise<Page> =>
    suite.openSignedIn(session, path, {
      // The hosted Stripe pages are not reachable here: answer them with a stand-in page.
      beforeVisit: async (page) => {
        await page.route(/^https:\/\/(checkout|billing)\.stripe\.test\//, (route) =>
          route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Stripe (test stand-in)</h1>" }),
        );
      },
    });

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
      const plan = await suite.server.db
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
      await suite.server.db
        .updateTable("users")
        .set({ role: "admin" })
        .where("id", "=", admin.user.id)
        .execute();
      const premium = await suite.server.db
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
      // …which the SPA does when under 5 minutes are left (product.md §4); let that time come.
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
