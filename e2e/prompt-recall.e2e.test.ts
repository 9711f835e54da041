import { describe, expect, it } from "vitest";
import type { PromptInspection } from "../common/prompt-inspection";
import { DESKTOP, ensureCharacters, openChat, PHONE, signedInPage } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { storeHistory } from "./support/history";
import { useBrowserSuite } from "./support/suite";

/**
 * The prompt inspector's "Recalled from earlier", in Chromium against the real server: a chat of
 * 60 stored exchanges whose newest reply has a stored inspection in which recall put two messages
 * 55 exchanges back (a match and its neighbour, whose long text is clamped). The reply's menu →
 * Prompt lists them under the section's heading, each with its heading, why it was picked and
 * "Jump to it", with no sideways scrolling on a phone; the jump closes the dialog, loads the history through that message and
 * shows it highlighted. The inspection is stored straight into the database (the way
 * e2e/search.e2e.test.ts stores the history), so this tests the page, not recall's search.
 */

const STORED = 60;
const FAR = 5;
const MATCH = `question ${FAR} about the lighthouse`;
/** The neighbour's reply: longer than three lines on any screen, with a word longer than a phone. */
const LONG = `${"The keeper waved at us from the gallery while the lamp turned. ".repeat(8)}${"x".repeat(80)}`;

describe.skipIf(!hasChromium)("the prompt inspector's recalled messages in Chromium", () => {
  const suite = useBrowserSuite();

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: lists what a reply's prompt recalled, and "Jump to it" opens the chat at it ${STORED - FAR} exchanges back`, async () => {
      const { url, db } = suite.server;
      const { page, session } = await signedInPage(suite.browser, url, viewport);
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, url, character.characterUUID);
      const log = page.getByRole("log", { name: "Messages" });
      await log.getByRole("article").first().waitFor();
      const sessionId = await storeHistory(
        db,
        session.user.id,
        character.characterUUID,
        Array.from({ length: STORED }, (_unused, i) => ({
          message: i === FAR ? MATCH : `question ${i}`,
          reply: i === FAR + 1 ? LONG : `answer ${i}`,
        })),
      );
      const rows = await db
        .selectFrom("chat_history")
        .select(["id", "message"])
        .where("session_id", "=", sessionId)
        .where("message", "in", [MATCH, `question ${FAR + 1}`, `question ${STORED - 1}`])
        .execute();
      const idOf = (message: string) => rows.find((row) => row.message === message)?.id ?? "";
      const inspection: PromptInspection = {
        parts: [
          { kind: "character", tokens: 40 },
          { kind: "history", tokens: 30 },
          { kind: "recalled", tokens: 26 },
          { kind: "template", tokens: 4 },
        ],
        promptTokens: 100,
        contextWindow: 4096,
        replyTokens: 512,
        history: { exchanges: STORED, kept: 4 },
        lore: [],
        memory: { settledFacts: 0, recentFacts: 0, summaryChars: 0 },
        recall: {
          enabled: true,
          query: ["lighthous"],
          budget: 300,
          ms: 4,
          messages: [
            {
              entryId: idOf(MATCH),
              side: "user",
              time: Date.now() - (STORED - FAR) * 60_000,
              speaker: "Me",
              text: MATCH,
              tokens: 14,
              why: "match",
              terms: ["lighthous"],
              by: ["words"],
            },
            {
              entryId: idOf(`question ${FAR + 1}`),
              side: "reply",
              time: Date.now() - (STORED - FAR - 1) * 60_000,
              speaker: character.characterName,
              text: LONG,
              tokens: 12,
              why: "neighbour",
              terms: [],
              by: ["meaning"],
            },
          ],
        },
      };
      await db
        .insertInto("prompt_inspections")
        .values({
          entry_id: idOf(`question ${STORED - 1}`),
          swipe_index: 0,
          inspection: JSON.stringify(inspection),
          created_at: Date.now(),
        })
        .execute();
      await page.reload();
      const newest = log.getByRole("article").filter({ hasText: `answer ${STORED - 1}` });
      await newest.waitFor();
      expect(await log.getByText(MATCH, { exact: true }).count()).toBe(0);

      await newest.getByRole("button", { name: "Message actions" }).click();
      await page.getByRole("menuitem", { name: "Prompt" }).click();
      const dialog = page.getByRole("dialog", { name: "What this reply's prompt was made of" });
      const list = dialog.getByRole("list", { name: "Recalled from earlier" });
      await list.waitFor();
      expect(await dialog.locator('[data-part="recalled"]').textContent()).toBe("Recalled messages26");
      const region = dialog.getByRole("region", { name: "Recalled from earlier" });
      expect(await region.getByText("Searched for: lighthous").count()).toBe(1);
      expect(await region.getByText("26 of 300 tokens used (4 ms).").count()).toBe(1);
      const items = list.getByRole("listitem");
      expect(await items.count()).toBe(2);
      const headings = await list.getByRole("heading", { level: 4 }).allTextContents();
      expect(headings).toHaveLength(2);
      expect(headings[0]?.startsWith("Me · ")).toBe(true);
      expect(headings[1]?.startsWith(`${character.characterName} · `)).toBe(true);
      expect(await items.nth(0).textContent()).toContain("matched: lighthous");
      expect(await items.nth(1).textContent()).toContain("next to a match · by meaning");
      // A phone's narrow dialog: nothing wider than it (no sideways scrolling).
      const overflow = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth);
      // The long text shows three lines at most (the jump shows it whole).
      const clamped = await items
        .nth(1)
        .getByText(/^The keeper waved/)
        .evaluate((element) => ({
          lines: element.clientHeight / Number.parseFloat(getComputedStyle(element).lineHeight),
          cut: element.scrollHeight > element.clientHeight,
        }));
      expect(clamped.cut).toBe(true);
      expect(Math.round(clamped.lines)).toBe(3);
      expect(overflow).toBe(0);
      const jump = items.nth(0).getByRole("button", { name: "Jump to it" });
      expect(await jump.getAttribute("aria-describedby")).toBe(
        await items.nth(0).getByRole("heading").getAttribute("id"),
      );

      await jump.click();
      await dialog.waitFor({ state: "detached" });
      const target = log.getByText(MATCH, { exact: true });
      await target.waitFor({ timeout: 20_000 });
      await expect.poll(() => log.locator("[data-found]").textContent()).toContain(MATCH);
      const inView = () =>
        target.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const list = element.closest('[role="log"]')!.getBoundingClientRect();
          return box.top >= list.top && box.bottom <= list.bottom;
        });
      await expect.poll(inView, { timeout: 10_000 }).toBe(true);
      await closePage(page);
    });
  }
});
