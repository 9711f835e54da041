import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { LoginData } from "../common/api";
import { ensureCharacters } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * A normal (non-admin) user visits every signed-in page of the SPA on a default install: no page
 * logs a console error or gets an answer of HTTP 400 or more it did not expect; the admin console
 * sends them to /forbidden without asking the admin API. The menu has no ADMIN entry, and the public free
 * subscription shows no form, since no video is configured.
 */

if (!hasChromium) console.warn("signed-in console e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 120_000;

/** What a page showed that a test may not expect: console errors and failed answers. */
interface Findings {
  consoleErrors: string[];
  failedRequests: string[];
}

/** Records the page's console errors and its answers of HTTP 400 or more, from now on. */
function watch(page: Page): Findings {
  const findings: Findings = { consoleErrors: [], failedRequests: [] };
  page.on("console", (message) => {
    if (message.type() === "error") findings.consoleErrors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400)
      findings.failedRequests.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return findings;
}

/** Waits until the page has no request in flight for a moment (the page's own calls are done). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle", { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(500);
}

describe.skipIf(!hasChromium)("signed-in pages of a normal user in Chromium", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  /** A Free member with a password who confirmed being 18 or older, signed in through the API. */
  const member = (email: string): Promise<LoginData> =>
    suite.member(email, "console e2e password", async (id) => {
      await suite.server.db
        .updateTable("users")
        .set({ adult_confirmed_at: Date.now() })
        .where("id", "=", id)
        .execute();
    });

  it(
    "no page logs a console error or gets an unexpected failed answer",
    async () => {
      const session = await member("console-user@example.com");
      expect(session.user.isAdmin).toBe(false);
      const page = await suite.openSignedIn(session, "/characters/list");
      const [character] = await ensureCharacters(page, 1);
      const characterName = character?.characterName ?? "";
      const findings = watch(page);
      const unexpected: string[] = [];

      /** Runs `go` (a visit), then keeps every console error and failed answer it saw. */
      const visit = async (label: string, go: () => Promise<void>) => {
        findings.consoleErrors.length = 0;
        findings.failedRequests.length = 0;
        await go();
        await settle(page);
        for (const line of [...findings.failedRequests, ...findings.consoleErrors])
          unexpected.push(`${label}: ${line}`);
      };
      const open = (path: string) => () => page.goto(`${suite.url}${path}`).then(() => undefined);

      await visit("characters list", async () => {
        await page.goto(`${suite.url}/characters/list`);
        await page.getByRole("link", { name: `Edit ${characterName}` }).waitFor();
      });
      expect(await page.locator('nav a[href="/admin"]').count()).toBe(0);
      await visit("character update", async () => {
        await page.getByRole("link", { name: `Edit ${characterName}` }).click();
        await page.waitForURL("**/characters/update");
        await page.getByRole("heading", { name: "Edit Character" }).waitFor();
      });
      await visit("character selection", open("/characters/selection"));
      await visit("character add", open("/characters/add"));
      await visit("profile", open("/user/profile"));
      await visit("change password", open("/user/change-password"));
      await visit("chat", async () => {
        await page.goto(`${suite.url}/character-select/${character?.characterUUID ?? ""}`);
        await page.waitForURL("**/chat");
        await page.getByRole("log", { name: "Messages" }).waitFor();
      });
      await visit("admin console (sent to /forbidden)", async () => {
        await page.goto(`${suite.url}/admin`);
        await page.waitForURL("**/forbidden");
      });

      expect(unexpected, `unexpected console errors or failed answers:\n${unexpected.join("\n")}`).toEqual(
        [],
      );
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "asks nothing of the admin API outside the admin console",
    async () => {
      const session = await member("console-quiet@example.com");
      const page = await suite.openSignedIn(session, "/user/profile");
      const adminCalls: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/api/admin/")) adminCalls.push(request.url());
      });
      await page.goto(`${suite.url}/user/profile`);
      await settle(page);
      await page.goto(`${suite.url}/characters/list`);
      await settle(page);
      expect(adminCalls).toEqual([]);
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "an admin gets the ADMIN menu entry from the session user",
    async () => {
      const session = await suite.member("console-admin@example.com", "console e2e password", async (id) => {
        await suite.server.db.updateTable("users").set({ role: "admin" }).where("id", "=", id).execute();
      });
      expect(session.user.isAdmin).toBe(true);
      const page = await suite.openSignedIn(session, "/user/profile");
      await page.getByRole("button", { name: "Open menu" }).click();
      await page.locator('nav a[href="/admin"]').waitFor();
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "the free subscription shows no form where no video is configured",
    async () => {
      const page = await suite.openSignedIn(await member("console-free@example.com"), "/maintenance");
      await page.evaluate(() => localStorage.clear());
      const answer = page.waitForResponse((response) => response.url().endsWith("/api/users/free/subscribe"));
      await page.goto(`${suite.url}/free-chat`);
      expect(await (await answer).json()).toMatchObject({ success: 1, data: { offered: false } });
      await page.getByText("The free subscription is not offered on this site at the moment.").waitFor();
      expect(await page.getByRole("form", { name: "Free subscription" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Free Subscribe Request" }).count()).toBe(0);
      await closePage(page);
    },
    TIMEOUT,
  );
});
