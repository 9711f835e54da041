import { describe, expect, it } from "vitest";
import type { Envelope, LoginData } from "../common/api";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The admin console in Chromium against the real server: an admin edits a plan's
 * price (seen on /pricing) and changes a user's plan (the user's session flags follow on the
 * next extend); a normal user is sent to /forbidden, sees nothing of the console and gets 403
 * from the admin API.
 */

if (!hasChromium) console.warn("admin e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 90_000;

describe.skipIf(!hasChromium)("admin console in Chromium", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  const base = (): string => suite.url;

  /** A member with a password (Free plan), signed in through the API. */
  const member = (email: string, role: "user" | "admin" = "user"): Promise<LoginData> =>
    suite.member(email, "admin e2e password", async (id) => {
      if (role === "admin")
        await suite.server.db.updateTable("users").set({ role: "admin" }).where("id", "=", id).execute();
    });

  it(
    "an admin edits a plan's price (shown on /pricing) and changes a user's plan",
    async () => {
      const admin = await member("boss@example.com", "admin");
      const user = await member("someone@example.com");
      const page = await suite.openSignedIn(admin, "/admin");
      await page.getByRole("heading", { name: "Admin console" }).waitFor();

      // Plans: edit Premium's price.
      const plans = page.getByRole("table", { name: "Plans" });
      await plans.getByRole("row", { name: /Premium Plus/ }).waitFor();
      await page.getByRole("button", { name: "Edit Premium", exact: true }).click();
      const form = page.getByRole("form", { name: "Edit plan Premium" });
      await form.getByLabel("Monthly price ($)").fill("24.50");
      await form.getByRole("button", { name: "Save plan" }).click();
      await page.locator("[data-sonner-toast]").filter({ hasText: "Plan saved." }).waitFor();
      await expect.poll(() => plans.getByRole("row", { name: /^Premium \$24\.50\/mo/ }).count()).toBe(1);

      // Users: find the member and put them on Basic Plan.
      await page.getByRole("tab", { name: "Users" }).click();
      await page.getByLabel("Search users (e-mail or name)").fill("someone@");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      const row = page
        .getByRole("table", { name: "Users" })
        .getByRole("row", { name: /someone@example\.com/ });
      await row.waitFor();
      await expect.poll(() => page.getByRole("table", { name: "Users" }).getByRole("row").count()).toBe(2);
      await row
        .getByLabel("Plan of someone@example.com", { exact: true })
        .selectOption({ label: "Basic Plan" });
      await row.getByRole("button", { name: "Set plan of someone@example.com" }).click();
      await page.locator("[data-sonner-toast]").filter({ hasText: "Plan changed." }).waitFor();
      await expect.poll(() => row.getByRole("cell").nth(1).textContent()).toBe("Basic Plan");

      // The audit log lists both actions.
      await page.getByRole("tab", { name: "Audit log" }).click();
      const audit = page.getByRole("table", { name: "Audit log" });
      await audit.getByRole("cell", { name: "user.plan", exact: true }).waitFor();
      expect(await audit.getByRole("cell", { name: "plan.update", exact: true }).count()).toBe(1);

      // The public pricing page shows the new price.
      await page.goto(`${base()}/pricing`);
      await page.getByRole("link", { name: "Premium, Price: $24.50/mo" }).waitFor();

      // The member's session answers the new plan's flags (photo upload) on extend.
      const extend = await fetch(`${base()}/api/auth/extend`, {
        method: "POST",
        headers: { authorization: `Bearer ${user.token}` },
      });
      const extended = (await extend.json()) as Envelope<{ user: { pl: string } }>;
      expect(extended.data?.user.pl).toBe("1");
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "a normal user is sent to /forbidden, sees nothing of the console and gets 403 from the admin API",
    async () => {
      const session = await member("plain@example.com");
      const page = await suite.openSignedIn(session, "/admin");
      await page.waitForURL("**/forbidden");
      expect(await page.getByRole("heading", { name: "Admin console" }).count()).toBe(0);
      expect(await page.getByRole("table", { name: "Plans" }).count()).toBe(0);
      expect(await page.getByRole("tab", { name: "Users" }).count()).toBe(0);
      const status = await page.evaluate(async (token) => {
        const answer = await fetch("/api/admin/users", { headers: { authorization: `Bearer ${token}` } });
        return { status: answer.status, body: (await answer.json()) as unknown };
      }, session.token);
      expect(status).toEqual({
        status: 403,
        body: { success: 0, message: "This area is for administrators only.", code: "not_admin" },
      });
      await closePage(page);
    },
    TIMEOUT,
  );
});
