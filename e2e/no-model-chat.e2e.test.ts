import { describe, expect, it } from "vitest";
import { DESKTOP, ensureCharacters, openChat, signedInPage } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * With no language model connected, the chat screen says the truth: the header's status is
 * "unavailable" (not "online"), the banner says an administrator has to connect a model, and
 * 'Let {name} write first' cannot be turned on, its reason shown under it.
 */
describe.skipIf(!hasChromium)("chat screen with no language model, in Chromium", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  it("shows unavailable in the header, the reason in the banner, and write-first disabled with its reason", async () => {
    const { browser, server } = suite;
    const { page } = await signedInPage(browser, server.url, DESKTOP);
    try {
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, server.url, character.characterUUID);
      const header = page.getByRole("banner");
      await header.getByText("unavailable", { exact: true }).waitFor();
      expect(await header.getByText("online", { exact: true }).count()).toBe(0);
      await page
        .getByRole("status")
        .getByText("No language model is connected yet. Please ask the site's administrator to connect one.")
        .waitFor();
      // Not an admin: no link to the admin console.
      expect(await page.getByRole("link", { name: "Connect a model in the admin console" }).count()).toBe(0);

      await page.getByRole("button", { name: "Chat menu" }).click();
      await page.getByRole("button", { name: "Settings" }).click();
      const dialog = page.getByRole("dialog", { name: "Settings" });
      const writeFirst = dialog.getByRole("switch", { name: `Let ${character.characterName} write first` });
      await writeFirst.waitFor();
      expect(await writeFirst.isDisabled()).toBe(true);
      expect(await writeFirst.isChecked()).toBe(false);
      await dialog
        .getByText(`${character.characterName} cannot write first while no language model is connected.`)
        .waitFor();
    } finally {
      await closePage(page);
    }
  }, 90_000);

  it("an admin is told to connect one and gets a link to the admin console, where models are set", async () => {
    const admin = await suite.member("no-model-admin@example.com", "no model e2e password", async (id) => {
      await suite.server.db
        .updateTable("users")
        .set({ role: "admin", adult_confirmed_at: Date.now() })
        .where("id", "=", id)
        .execute();
    });
    const page = await suite.openSignedIn(admin, "/characters/list");
    try {
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, suite.server.url, character.characterUUID);
      // The admin is told to connect one, not to ask the administrator.
      const banner = page.getByRole("status").filter({ hasText: "No language model is connected yet." });
      await banner
        .getByText("As an administrator, connect one in Admin → Models.", { exact: false })
        .waitFor();
      expect(await banner.getByText("ask the site's administrator", { exact: false }).count()).toBe(0);
      const link = page
        .getByRole("status")
        .getByRole("link", { name: "Connect a model in the admin console" });
      await link.waitFor();
      expect(await link.getAttribute("href")).toBe("/admin#models");
      await link.click();
      await page.waitForURL("**/admin#models");
      await page.getByRole("heading", { name: "Models", exact: true }).waitFor();
    } finally {
      await closePage(page);
    }
  }, 90_000);
});
