import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoginData } from "../common/api";
import {
  DESKTOP,
  ensureCharacters,
  openChat,
  PHONE,
  signedInPage,
  withoutBrowserSpeech,
} from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * A default install in Chromium ("A default install shows every feature the plan allows,
 * or says plainly why not"): no model, no image engine, no Stripe, no OAuth. On phone and desktop:
 * the chat says in a visible banner why it cannot answer, a tap on the microphone shows why it is
 * off; with payments off nothing offers Buy or Manage, plan cards and the add-on lead a signed-in
 * member to the profile's plan panel with the way to the admin, never to /login; an admin gets
 * ADMIN in the menu and uploads a plan's picture that the pricing page then shows.
 */

if (!hasChromium) console.warn("default-install e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 90_000;
const VIEWPORTS = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const;

describe.skipIf(!hasChromium)("a default install in Chromium (no model, no images, no Stripe)", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });
  const pngPath = path.join(os.tmpdir(), `default-install-${process.pid}.png`);
  let counter = 0;

  beforeAll(async () => {
    fs.writeFileSync(
      pngPath,
      await sharp({ create: { width: 320, height: 200, channels: 3, background: "#2a9d8f" } })
        .png()
        .toBuffer(),
    );
  });
  afterAll(() => fs.rmSync(pngPath, { force: true }));

  /** A member with a password on Free; `monthlyAtLimit` puts them on a used-up monthly quota. */
  const member = (label: string, options: { admin?: boolean; monthlyAtLimit?: boolean } = {}) => {
    counter += 1;
    return suite.member(`${label}${counter}@example.com`, "default install password", async (id) => {
      if (!options.admin && !options.monthlyAtLimit) return;
      const month = new Date().toISOString().slice(0, 7);
      await suite.server.db
        .updateTable("users")
        .set({
          ...(options.admin ? { role: "admin" } : {}),
          ...(options.monthlyAtLimit
            ? { quota_period: "month", chat_limit: 3, chat_count: 3, chat_period: month }
            : {}),
        })
        .where("id", "=", id)
        .execute();
    });
  };

  const open = (session: LoginData, path: string, viewport: { width: number; height: number }) =>
    suite.openSignedIn(session, path, { context: { viewport } });

  /** Opens the signed-in menu (the sliding top menu of product.md §2). */
  const openMenu = async (page: Page) => {
    await page.getByRole("button", { name: "Open menu" }).click();
    return page.getByRole("navigation", { name: "Main" });
  };

  for (const [label, viewport] of VIEWPORTS) {
    it(
      `${label}: no model shows a visible banner with the reason; a tap on the microphone shows why it is off`,
      async () => {
        // A guest (adult confirmed, as the chat tests sign in).
        const { page } = await signedInPage(suite.browser, suite.url, viewport);
        await withoutBrowserSpeech(page);
        const [character] = await ensureCharacters(page, 1);
        if (character === undefined) throw new Error("no character");
        await openChat(page, suite.url, character.characterUUID);

        const banner = page.locator(".chat-banner");
        await banner.waitFor();
        expect(await banner.getAttribute("role")).toBe("status");
        expect(((await banner.textContent()) ?? "").length).toBeGreaterThan(10);
        // Visible text, not a tooltip: it takes room on the screen.
        const box = await banner.boundingBox();
        expect(box?.height ?? 0).toBeGreaterThan(10);

        const mic = page.getByRole("button", { name: "Microphone" });
        expect(await mic.getAttribute("aria-disabled")).toBe("true");
        // A tap (touch devices have no hover) shows the reason on a visible line.
        await mic.click({ force: true });
        const note = page.locator(".composer__note");
        await note.waitFor();
        expect(await note.textContent()).toMatch(/^Speech input is not available/);
        expect(await note.isVisible()).toBe(true);
        await page.screenshot({ path: `test-results/default-install-banner-${label}.png` });
        await closePage(page);
      },
      TIMEOUT,
    );

    it(
      `${label}: payments off: no Buy or Manage; plan cards and the add-on lead to the plan panel with the admin's contact`,
      async () => {
        const session = await member(`nopay-${label}`, { monthlyAtLimit: true });
        const page = await open(session, "/pricing", viewport);
        const grid = page.getByRole("list", { name: "Pricing plans" });
        await grid.getByRole("listitem").first().waitFor();
        await page.getByText("Your current plan").waitFor();
        expect(await page.getByRole("button", { name: /^Subscribe to/ }).count()).toBe(0);

        // A seeded plan's card (its URL is /login) does not send a signed-in member to /login.
        const card = grid.getByRole("link", { name: /^Premium, Price/ });
        expect(await card.getAttribute("href")).toBe("/user/profile#plan");
        for (const link of await grid.getByRole("link").all())
          expect(await link.getAttribute("href")).not.toBe("/login");

        // The monthly limit is reached: the add-on is offered, and leads to the plan panel.
        const addOn = page.getByRole("region", { name: "Add-on" });
        await addOn.getByText("Add 100 messages to this month for $1.99").waitFor();
        await addOn.getByRole("link", { name: "How to get 100 more messages" }).click();
        await page.waitForURL("**/user/profile#plan");
        const panel = page.getByRole("region", { name: "Plan and messages" });
        await panel.getByText("Online payments are not set up on this server.").waitFor();
        await panel.getByText("You have used this month's messages.").waitFor();
        expect(await panel.getByRole("button").count()).toBe(0);
        await expect.poll(() => panel.isVisible()).toBe(true);
        await panel.getByRole("link", { name: "contact the site admin" }).click();
        await page.waitForURL("**/contact");

        // A card's own action leads to the same panel.
        await page.goto(`${suite.url}/pricing`);
        await grid.getByRole("link", { name: "How to get Premium Plus" }).click();
        await page.waitForURL("**/user/profile#plan");
        await page.getByText("Online payments are not set up on this server.").waitFor();
        await page.screenshot({ path: `test-results/default-install-plan-panel-${label}.png` });
        await closePage(page);
      },
      TIMEOUT,
    );

    it(
      `${label}: an admin has ADMIN in the menu and uploads a plan's picture; a member has no ADMIN`,
      async () => {
        const someone = await member(`plain-${label}`);
        const plain = await open(someone, "/characters/list", viewport);
        const plainMenu = await openMenu(plain);
        await plainMenu.getByRole("link", { name: "LOGOUT" }).waitFor();
        await plainMenu.getByRole("link", { name: "MY PROFILE" }).waitFor();
        expect(await plainMenu.getByRole("link", { name: "ADMIN" }).count()).toBe(0);
        await closePage(plain);

        const boss = await member(`boss-${label}`, { admin: true });
        const page = await open(boss, "/characters/list", viewport);
        const menu = await openMenu(page);
        await menu.getByRole("link", { name: "ADMIN" }).click();
        await page.waitForURL("**/admin");
        await page.getByRole("heading", { name: "Admin console" }).waitFor();

        const plan = label === "phone" ? "Basic Plan" : "Premium";
        await page.getByRole("button", { name: `Edit ${plan}`, exact: true }).click();
        const form = page.getByRole("form", { name: `Edit plan ${plan}` });
        await form.getByLabel("Plan picture (JPEG or PNG)").setInputFiles(pngPath);
        await form.getByRole("button", { name: "Save plan" }).click();
        await page.locator("[data-sonner-toast]").filter({ hasText: "Plan picture saved." }).waitFor();

        const stored = await suite.server.db
          .selectFrom("plans")
          .select("image")
          .where("name", "=", plan)
          .executeTakeFirstOrThrow();
        expect(stored.image).toMatch(/^[0-9a-f-]{36}\.jpg$/);
        await page.goto(`${suite.url}/pricing`);
        const image = page
          .getByRole("list", { name: "Pricing plans" })
          .getByRole("link", { name: new RegExp(`^${plan}, Price`) })
          .locator("img");
        await expect.poll(() => image.getAttribute("src")).toBe(`/content/pricing/${stored.image}`);
        await expect
          .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth))
          .toBeGreaterThan(0);
        await closePage(page);
      },
      TIMEOUT,
    );
  }
});
