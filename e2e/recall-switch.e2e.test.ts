import { describe, expect, it } from "vitest";
import {
  callApi,
  DESKTOP,
  ensureCharacters,
  openChat,
  signedInPage,
  withoutBrowserSpeech,
} from "./chat.helpers";
import { closePage, hasChromium, toastWith } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * 'Recall earlier messages' in Chromium: the chat's Settings show the switch on by default with
 * its hint; turned off and saved, the server keeps it off (GET /api/chat/recall), and the popup
 * opened again shows it off; Cancel leaves the stored setting as it was.
 */
describe.skipIf(!hasChromium)("the recall switch in Chromium", () => {
  const suite = useBrowserSuite();

  it("shows the chat's recall setting, saves a change with Save and keeps it on Cancel", async () => {
    const { browser, url } = suite;
    const { page } = await signedInPage(browser, url, DESKTOP);
    try {
      await withoutBrowserSpeech(page);
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, url, character.characterUUID);
      const stored = async () =>
        (
          await callApi<{ data: { enabled: boolean } }>(
            page,
            "GET",
            `/api/chat/recall?id=${character.characterUUID}`,
          )
        ).data.enabled;
      const open = async () => {
        await page.getByRole("button", { name: "Chat menu" }).click();
        await page.getByRole("button", { name: "Settings" }).click();
        const dialog = page.getByRole("dialog", { name: "Settings" });
        const toggle = dialog.getByRole("switch", { name: "Recall earlier messages" });
        await toggle.waitFor();
        return { dialog, toggle };
      };

      const first = await open();
      expect(await first.toggle.isChecked()).toBe(true);
      await first.dialog
        .getByText("Lets the character look up earlier parts of this chat when replying.")
        .waitFor();
      await first.toggle.uncheck();
      await first.dialog.getByRole("button", { name: "Save" }).click();
      await toastWith(page, "Settings saved!").waitFor();
      await expect.poll(stored, { timeout: 10_000 }).toBe(false);

      const second = await open();
      expect(await second.toggle.isChecked()).toBe(false);
      await second.toggle.check();
      await second.dialog.getByRole("button", { name: "Cancel" }).click();
      await second.dialog.waitFor({ state: "hidden" });
      expect(await stored()).toBe(false);
    } finally {
      await closePage(page);
    }
  }, 120_000);
});
