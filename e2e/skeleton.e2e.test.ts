import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The walking skeleton in a real browser against the real server (built SPA, SQLite, the
 * tiny local model): demo login → preset selection → characters list → chat → a model reply
 * that survives a reload.
 */

if (!hasChromium) console.warn(`skeleton e2e skipped: no Chromium found (set CHROMIUM_PATH)`);

const REPLY_TIMEOUT_MS = 60_000;
const SCREENSHOT = "test-results/chat.png";

/** One bubble of the chat log, in screen order. */
interface Bubble {
  label: string;
  text: string;
}

/** The bubbles of the chat log (role log 'Messages'; each bubble an article named by author). */
async function readBubbles(page: Page): Promise<Bubble[]> {
  return page.getByRole("log", { name: "Messages" }).evaluate((log) =>
    Array.from(log.querySelectorAll("article")).map((article) => ({
      label: article.getAttribute("aria-label") ?? "",
      // biome-ignore lint/performance/useDomNodeTextContent: the formatted text as shown, paragraphs apart
      text: ((article.querySelector(".bubble__text") as HTMLElement | null)?.innerText ?? "").trim(),
    })),
  );
}

/** The reply bubbles that follow the user's last `message` bubble. */
function repliesAfter(bubbles: Bubble[], message: string): Bubble[] {
  let index = -1;
  bubbles.forEach((bubble, position) => {
    if (bubble.label === "Your message" && bubble.text === message) index = position;
  });
  if (index < 0) return [];
  const replies: Bubble[] = [];
  for (const bubble of bubbles.slice(index + 1)) {
    if (!bubble.label.startsWith("Reply from ")) break;
    replies.push(bubble);
  }
  return replies;
}

/** Collapses whitespace and drops the emphasis asterisks, as the screen shows the text. */
function normalise(text: string): string {
  return text.replace(/\*/g, "").replace(/\s+/g, " ").trim();
}

describe.skipIf(!hasChromium)("walking skeleton in Chromium", () => {
  const suite = useBrowserSuite();

  it(
    "demo login, pick a preset, chat with it and keep the chat after a reload",
    async () => {
      const { server, browser } = suite;
      const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
      page.on("pageerror", (error) => console.error("[page error]", error.message));
      page.on("console", (message) => {
        if (message.type() === "error") console.error("[console]", message.text());
      });

      // Demo login: busy 'Enjoy..' then, after the 4 s success toast, the page the server named.
      await page.goto(`${server.url}/login/demo`);
      await page.waitForURL("**/characters/selection", { timeout: 20_000 });

      // Pick the first preset and confirm.
      const presets = page.getByRole("list", { name: "Preset characters" });
      await presets.getByRole("button").first().click();
      await page.getByRole("button", { name: /^Select (her|him)$/ }).click();
      await page.getByRole("button", { name: /^Yes, create (her|him)!$/ }).click();
      await page.waitForURL("**/characters/list");

      // Start chatting with the new character.
      await page.getByRole("link", { name: "Start Chatting" }).first().click();
      await page.waitForURL("**/chat");
      // The 18+ gate: asked once, stored by the server.
      const gate = page.getByRole("dialog");
      await gate.getByRole("heading", { name: "Are you 18 or older?" }).waitFor();
      await gate.getByRole("button", { name: "Yes, I am 18 or older" }).click();
      await expect
        .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "{}").adult))
        .toBe("1");
      const input = page.getByRole("textbox", { name: "Type a message" });
      await expect.poll(() => input.isVisible(), { timeout: 15_000 }).toBe(true);

      // Send 'Hello' and wait for the model's reply bubble.
      const answer = page.waitForResponse(
        (response) => response.url().endsWith("/api/chat/message") && response.request().method() === "POST",
        { timeout: REPLY_TIMEOUT_MS },
      );
      await input.fill("Hello");
      await page.getByRole("button", { name: "Send" }).click();
      // The chat screen asks for server-sent events; the final `done` event holds the plain reply.
      const body = await (await answer).text();
      const done = /event: done\ndata: (.*)\n/.exec(body);
      const reply = JSON.parse(done?.[1] ?? body) as {
        success: number;
        message: string;
        history?: { chatHistoryReplyMessage: string }[];
      };
      expect(reply.success, reply.message).toBe(1);
      const storedReply = reply.history?.[0]?.chatHistoryReplyMessage ?? "";
      expect(normalise(storedReply)).not.toBe("");

      await expect
        .poll(async () => repliesAfter(await readBubbles(page), "Hello").map((bubble) => bubble.text), {
          timeout: REPLY_TIMEOUT_MS,
        })
        .not.toEqual([]);
      const shown = repliesAfter(await readBubbles(page), "Hello");
      const shownText = normalise(shown.map((bubble) => bubble.text).join(" "));
      expect(shownText).not.toBe("");
      expect(shownText).not.toBe("Hello");
      await expect.poll(() => page.getByRole("status", { name: "typing" }).count()).toBe(0);

      mkdirSync("test-results", { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      // Reload: the navigation state keeps the chat id; the history comes back from the server.
      await page.reload();
      await expect
        .poll(
          async () => repliesAfter(await readBubbles(page), "Hello").map((bubble) => normalise(bubble.text)),
          {
            timeout: 20_000,
          },
        )
        .toEqual([normalise(storedReply)]);
      await page.close();
    },
    REPLY_TIMEOUT_MS * 3,
  );
});
