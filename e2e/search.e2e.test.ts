import { describe, expect, it } from "vitest";
import { DESKTOP, ensureCharacters, openChat, PHONE, signedInPage } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { storeHistory } from "./support/history";
import { useBrowserSuite } from "./support/suite";

/**
 * Search (product.md "Search"): in a chat of 220 stored exchanges, searching a word of a message
 * 215 exchanges back finds it with the word marked; choosing the result loads the history through
 * it and shows it in the middle of the list, highlighted. Searching "All chats" from another chat
 * finds a reply there and opens that chat at it.
 */

const STORED = 220;
const FAR = 5;

describe.skipIf(!hasChromium)("message search in Chromium", () => {
  const suite = useBrowserSuite();

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: finds a message ${STORED - FAR} back, marks the match, and jumps to it; across chats too`, async () => {
      const { server, browser } = suite;
      const { url, db } = server;
      const { page, session } = await signedInPage(browser, url, viewport);
      const [first, second] = await ensureCharacters(page, 2);
      if (!first || !second) throw new Error("no characters");
      // Open both chats once (the greeting creates each session), then store their histories.
      await openChat(page, url, second.characterUUID);
      const log = page.getByRole("log", { name: "Messages" });
      await log.getByRole("article").first().waitFor();
      await openChat(page, url, first.characterUUID);
      await log.getByRole("article").first().waitFor();
      await storeHistory(
        db,
        session.user.id,
        first.characterUUID,
        Array.from({ length: STORED }, (_unused, i) => ({
          message: i === FAR ? `question ${i} about the zeppelin` : `question ${i}`,
          reply: `answer ${i}`,
        })),
      );
      await storeHistory(db, session.user.id, second.characterUUID, [
        { message: "tell me a story", reply: "Once upon a time a lighthouse keeper…" },
      ]);
      await page.reload();
      await log.getByText(`answer ${STORED - 1}`, { exact: true }).waitFor();

      await page.getByRole("button", { name: "Search messages" }).click();
      await page.getByRole("searchbox", { name: "Search text" }).fill("Zeppe");
      const results = page.getByRole("list", { name: "Search results" });
      const hit = results.getByRole("button").filter({ hasText: "zeppelin" });
      await hit.waitFor();
      expect(await results.getByRole("button").count()).toBe(1);
      expect(await hit.locator("mark").allTextContents()).toEqual(["zeppelin"]);

      await hit.click();
      const target = log.getByText(`question ${FAR} about the zeppelin`, { exact: true });
      await target.waitFor({ timeout: 20_000 });
      const found = log.locator("[data-found]");
      await expect.poll(() => found.textContent(), { timeout: 10_000 }).toContain("zeppelin");
      // In view: inside the list's visible box, and stays there (the list no longer follows the bottom).
      const inView = () =>
        target.evaluate((element) => {
          const list = element.closest('[role="log"]')!.getBoundingClientRect();
          const box = element.getBoundingClientRect();
          return box.top >= list.top && box.bottom <= list.bottom;
        });
      await expect.poll(inView, { timeout: 10_000 }).toBe(true);
      await page.waitForTimeout(500);
      expect(await inView()).toBe(true);

      // Across chats: from this chat, "All chats" finds the other character's reply and opens it.
      await page.getByRole("button", { name: "Search messages" }).click();
      await page.getByRole("radio", { name: "All chats" }).check();
      await page.getByRole("searchbox", { name: "Search text" }).fill("lighthouse");
      const other = results.getByRole("button").filter({ hasText: "lighthouse" });
      await other.waitFor();
      await other.click();
      const reply = log.getByText("Once upon a time a lighthouse keeper…", { exact: true });
      await reply.waitFor();
      await expect.poll(() => log.locator("[data-found]").textContent()).toContain("lighthouse");
      expect(await log.getByText(`answer ${STORED - 1}`, { exact: true }).count()).toBe(0);
      await closePage(page);
    });
  }
});
