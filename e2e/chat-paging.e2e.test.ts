import { mkdirSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { HISTORY_PAGE_SIZE } from "../common/constants";
import { DESKTOP, ensureCharacters, openChat, PHONE, signedInPage } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { storeHistory } from "./support/history";
import { useBrowserSuite } from "./support/suite";

/**
 * "Paging test with 95 stored messages": the chat opens on the newest 10
 * entries; scrolling up with the mouse wheel loads the previous page (offset + 10, limit 10)
 * until the first message, with no entry shown twice and no jump: the message at the top of
 * the view stays at the same place on screen when a page is prepended. Earlier pages are held
 * by the test until the position has been measured, so the check does not depend on timing.
 * Back at the bottom, the page keeps only the newest 60 bubbles; scrolling up shows the
 * loaded ones again the same way, without new requests.
 */

const STORED = 95;

describe.skipIf(!hasChromium)("chat history paging in Chromium", () => {
  const suite = useBrowserSuite();

  /**
   * A signed-in page on a chat with its greeting shown, then `count` exchanges stored behind it
   * ("question i" / "answer i", oldest first): the page shows them once reloaded.
   */
  async function chatWithStoredHistory(viewport: typeof PHONE, count: number) {
    const { server, browser } = suite;
    const { page, session } = await signedInPage(browser, server.url, viewport);
    const [character] = await ensureCharacters(page, 1);
    if (!character) throw new Error("no character");
    await openChat(page, server.url, character.characterUUID);
    const log = page.getByRole("log", { name: "Messages" });
    await log.getByRole("article").first().waitFor();
    await storeHistory(
      server.db,
      session.user.id,
      character.characterUUID,
      Array.from({ length: count }, (_unused, i) => ({ message: `question ${i}`, reply: `answer ${i}` })),
    );
    return { page, log };
  }

  beforeAll(() => {
    mkdirSync("test-results/screenshots", { recursive: true });
  });

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: scrolling up loads pages of 10 until the first of ${STORED} messages, no duplicate, no jump`, async () => {
      const { page, log } = await chatWithStoredHistory(viewport, STORED);

      const requests: Array<{ offset: number; limit: number }> = [];
      const held: Array<() => void> = [];
      await page.route(
        (address) => address.pathname === "/api/chat/history/paginated",
        async (route) => {
          const query = new URL(route.request().url()).searchParams;
          const offset = Number(query.get("offset"));
          requests.push({ offset, limit: Number(query.get("limit")) });
          if (offset > 0) await new Promise<void>((resolve) => held.push(resolve));
          await route.continue();
        },
      );
      await page.reload();
      await log.getByText(`answer ${STORED - 1}`, { exact: true }).waitFor();
      const mine = log.getByRole("article", { name: "Your message" });
      // The newest page only: 10 entries.
      await expect.poll(() => mine.count()).toBe(HISTORY_PAGE_SIZE);
      expect(await log.getByText(`question ${STORED - HISTORY_PAGE_SIZE - 1}`, { exact: true }).count()).toBe(
        0,
      );
      const box = await log.boundingBox();
      if (box === null) throw new Error("no list box");
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);

      let oldest = STORED - HISTORY_PAGE_SIZE;
      let pages = 1;
      while (oldest > 0) {
        const heldBefore = held.length;
        // Scroll to the top like a person, with the wheel.
        await expect
          .poll(
            async () => {
              await page.mouse.wheel(0, -4000);
              return held.length;
            },
            { timeout: 10_000, interval: 150 },
          )
          .toBeGreaterThan(heldBefore);
        await expect.poll(() => log.evaluate((element) => element.scrollTop)).toBe(0);
        await log.getByRole("status", { name: "Loading earlier messages" }).waitFor();
        const anchor = mine.filter({ has: page.getByText(`question ${oldest}`, { exact: true }) });
        const before = await anchor.boundingBox();
        held.at(-1)?.();
        const next = Math.max(oldest - HISTORY_PAGE_SIZE, 0);
        await log.getByText(`question ${next}`, { exact: true }).waitFor();
        pages += 1;
        const after = await anchor.boundingBox();
        if (before === null || after === null) throw new Error("anchor has no box");
        // No jump: the message that was at the top of the view is where it was.
        expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(1);
        expect(await log.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
        await expect
          .poll(() => log.getByRole("status", { name: "Loading earlier messages" }).count())
          .toBe(0);
        if (pages === 2) await page.screenshot({ path: `test-results/screenshots/paging-${label}.png` });
        oldest = next;
      }

      // Offsets 0, 10, … 90 with limit 10; the last page was short, so nothing more is asked.
      expect(requests.map((request) => request.offset)).toEqual(
        Array.from({ length: 10 }, (_unused, i) => i * HISTORY_PAGE_SIZE),
      );
      expect(requests.every((request) => request.limit === HISTORY_PAGE_SIZE)).toBe(true);
      await page.mouse.wheel(0, -4000);
      await page.waitForTimeout(500);
      expect(requests.length).toBe(10);

      // Every message once, in order, after the greeting.
      const texts = await mine.locator(".bubble__text").allTextContents();
      expect(texts).toEqual(Array.from({ length: STORED }, (_unused, i) => `question ${i}`));
      const replies = await log.getByRole("article", { name: /^Reply from / }).count();
      expect(replies).toBe(STORED + 1);

      // Back at the bottom only the newest 60 bubbles stay in the page (bounded rendering)…
      await page.getByRole("button", { name: "Scroll to bottom" }).click();
      await expect
        .poll(
          () => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight),
          { timeout: 10_000 },
        )
        .toBeLessThan(2);
      await expect.poll(() => log.getByRole("article").count(), { timeout: 10_000 }).toBe(60);
      expect(await mine.first().locator(".bubble__text").textContent()).toBe("question 65");
      await log.getByText(`answer ${STORED - 1}`, { exact: true }).waitFor();
      // The list keeps to the newest for a moment after a change (100 ms after new bubbles, one
      // frame more after a trim, product.md §9): a person starts reading up after that, not within
      // the same frame (a loaded runner once scrolled up before that frame and saw the view pulled down).
      await page.waitForTimeout(500);
      // …and scrolling up shows the loaded ones again, 10 exchanges at a time, without a jump
      // and without asking the server again, up to the first message.
      let top = 65;
      while (top > 0) {
        const anchor = mine.filter({ has: page.getByText(`question ${top}`, { exact: true }) });
        const before = await log.evaluate((element, text) => {
          element.scrollTop = 0;
          const found = [...element.querySelectorAll("article")].find(
            (article) => article.querySelector(".bubble__text")?.textContent === text,
          );
          return found ? found.getBoundingClientRect().top : Number.NaN;
        }, `question ${top}`);
        const next = Math.max(top - HISTORY_PAGE_SIZE, 0);
        await log.getByText(`question ${next}`, { exact: true }).waitFor();
        const after = await anchor.boundingBox();
        if (after === null) throw new Error("anchor has no box");
        expect(Math.abs(after.y - before)).toBeLessThanOrEqual(1);
        top = next;
      }
      expect(await mine.locator(".bubble__text").allTextContents()).toEqual(
        Array.from({ length: STORED }, (_unused, i) => `question ${i}`),
      );
      expect(requests.length).toBe(10);
      await closePage(page);
    }, 90_000);

    it(`${label}: reading up and down through 300 exchanges keeps at most 200 bubbles in the page`, async () => {
      const total = 300;
      const { page, log } = await chatWithStoredHistory(viewport, total);
      await page.reload();
      await log.getByText(`answer ${total - 1}`, { exact: true }).waitFor();
      const mine = log.getByRole("article", { name: "Your message" });
      /** The questions rendered now: a run of consecutive numbers, each once. */
      const rendered = async () => {
        const numbers = (await mine.locator(".bubble__text").allTextContents()).map((text) =>
          Number(text.replace("question ", "")),
        );
        expect(await log.getByRole("article").count()).toBeLessThanOrEqual(200);
        numbers.forEach((value, index) => {
          expect(value).toBe((numbers[0] ?? 0) + index);
        });
        return { first: numbers[0] ?? -1, last: numbers.at(-1) ?? -1 };
      };
      const box = await log.boundingBox();
      if (box === null) throw new Error("no list box");
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);

      // Up with the wheel to the first message.
      let view = await rendered();
      while (view.first > 0) {
        const before = view.first;
        await expect
          .poll(
            async () => {
              await page.mouse.wheel(0, -4000);
              return (await rendered()).first;
            },
            { timeout: 15_000, interval: 200 },
          )
          .toBeLessThan(before);
        view = await rendered();
      }
      expect(view.last).toBeLessThan(total - 1);
      const jump = page.getByRole("button", { name: "Scroll to bottom" });
      await jump.waitFor();
      await page.screenshot({ path: `test-results/screenshots/window-top-${label}.png` });

      // Down again: the newer bubbles come back, older ones leave, and what is in view stays put.
      const lastText = () => log.getByRole("article").last().locator(".bubble__text").textContent();
      let last = await lastText();
      while (last !== `answer ${total - 1}`) {
        const lastBefore = last;
        // Near the rendered end, as a reader keeps scrolling down: each try scrolls there again
        // (one scroll can land while the previous reveal is still being laid out) and notes the
        // bubble at the top of the view, which must not move when newer bubbles come in.
        let anchor = { text: "", top: Number.NaN };
        await expect
          .poll(
            async () => {
              anchor = await log.evaluate(async (element) => {
                element.scrollTop = element.scrollHeight - element.clientHeight - 100;
                const top = element.getBoundingClientRect().top;
                const article = [...element.querySelectorAll("article")].find(
                  (candidate) => candidate.getBoundingClientRect().bottom > top,
                );
                const noted = {
                  text: article?.querySelector(".bubble__text")?.textContent ?? "",
                  top: article?.getBoundingClientRect().top ?? Number.NaN,
                };
                // The scroll's event and the render it causes come within the next frames.
                await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
                return noted;
              });
              return lastText();
            },
            { timeout: 10_000, interval: 300 },
          )
          .not.toBe(lastBefore);
        const moved = await log.evaluate((element, text) => {
          const article = [...element.querySelectorAll("article")].find(
            (candidate) => candidate.querySelector(".bubble__text")?.textContent === text,
          );
          return article?.getBoundingClientRect().top ?? Number.NaN;
        }, anchor.text);
        expect(Math.abs(moved - anchor.top)).toBeLessThanOrEqual(1);
        view = await rendered();
        last = await lastText();
      }
      expect(view.last).toBe(total - 1);
      await log.getByText(`answer ${total - 1}`, { exact: true }).waitFor();

      // From far up, the button goes straight to the newest messages.
      await log.evaluate((element) => {
        element.scrollTop = 0;
      });
      await expect.poll(async () => (await rendered()).first, { timeout: 10_000 }).toBeLessThan(view.first);
      await jump.click();
      await expect
        .poll(
          () => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight),
          { timeout: 10_000 },
        )
        .toBeLessThan(2);
      await log.getByText(`answer ${total - 1}`, { exact: true }).waitFor();
      expect(await log.getByRole("article").count()).toBeLessThanOrEqual(200);
      await closePage(page);
    }, 180_000);
  }

  it("phone: scrolled to the top while the first page still shows in stages, the earlier page loads", async () => {
    const { page, log } = await chatWithStoredHistory(PHONE, STORED);
    // A person flicking to the top as the chat opens: from the frame its first bubble shows, the
    // list is set to its top on every frame for a second (a scroll event only when it moved).
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        const list = document.querySelector('[role="log"]');
        if (list?.querySelector("article") == null) return;
        observer.disconnect();
        const until = performance.now() + 1000;
        const toTop = () => {
          list.scrollTop = 0;
          if (performance.now() < until) requestAnimationFrame(toTop);
        };
        toTop();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    // The page before the newest one loads (its oldest entry is question 75 of 95).
    await log
      .getByText(`question ${STORED - 2 * HISTORY_PAGE_SIZE}`, { exact: true })
      .waitFor({ state: "attached", timeout: 10_000 });
    await closePage(page);
  });
});
