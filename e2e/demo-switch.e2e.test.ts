// The guest demo as the owner's choice, in Chromium: /login/demo says it is off, an admin turns it on in Admin → Site, and the same link then signs a guest in.
import { describe, expect, it } from "vitest";
import { closePage, hasChromium, openPage, toastWith } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

if (!hasChromium) console.warn("demo switch e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const REFUSAL = "The guest demo is turned off on this site. Sign in, or ask the site's owner for an account.";

describe.skipIf(!hasChromium)("the guest demo's switch in Chromium", () => {
  // A closed site: the demo is off until an admin opens it.
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none", DEMO_LOGIN: "", REGISTRATION: "closed" } });

  it("/login/demo keeps the refusal on the screen beside the sign-in form; Admin → Site opens the demo, and the link then works", async () => {
    const visitor = await openPage(suite.browser);
    try {
      await visitor.goto(`${suite.url}/login/demo`);
      const notice = visitor.getByRole("alert").filter({ hasText: REFUSAL });
      await notice.waitFor();
      await visitor.getByLabel("Email").waitFor();
      expect(visitor.url()).toMatch(/\/login\/demo$/);
    } finally {
      await closePage(visitor);
    }

    const admin = await suite.member("owner@example.com", "owner password 1", async (id) => {
      await suite.server.db.updateTable("users").set({ role: "admin" }).where("id", "=", id).execute();
    });
    const console = await suite.openSignedIn(admin, "/admin");
    try {
      await console.getByRole("tab", { name: "Site" }).click();
      const demo = console.getByRole("switch", { name: "Guest demo" });
      await demo.waitFor();
      expect(await demo.isChecked()).toBe(false);
      await console.getByText("Sign-up: closed (REGISTRATION=closed).", { exact: false }).waitFor();
      await demo.click();
      await toastWith(console, "The guest demo is on.").first().waitFor();
      await expect.poll(() => demo.isChecked()).toBe(true);
      await console.getByRole("link", { name: /\/login\/demo$/ }).waitFor();
    } finally {
      await closePage(console);
    }

    const guest = await openPage(suite.browser);
    try {
      await guest.goto(`${suite.url}/login/demo`);
      await guest.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 30_000 });
      expect(await guest.getByRole("alert").filter({ hasText: REFUSAL }).count()).toBe(0);
    } finally {
      await closePage(guest);
    }
  }, 120_000);
});
