import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedCompletions } from "../server/testing/completions-server";
import { DESKTOP, ensureCharacters, openChat, PHONE } from "./chat.helpers";
import { closePage, demoSession, hasChromium, openPage, storeSession } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * Formatted replies on the chat screen in Chromium, on a phone (touch) and a desktop, against the
 * real server with a scripted model that streams word by word: a reply with bold text, a list, a
 * link and a code block shows them formatted while it streams, at its end and after a reload; the
 * link opens in a new tab without access to the app; the code block has a Copy button; the reply
 * keeps its width at its end (its text is not wrapped again when its tools appear); raw HTML
 * (a script, an image with onerror) in a reply is shown as text and never runs.
 */

const FORMATTED = [
  "Here is **bold news** for you, *smiles*.",
  "",
  "- first item",
  "- second item",
  "",
  "Read [the guide](https://example.com/guide) later, not [this](javascript:alert(1)).",
  "",
  "```js",
  "const answer = 42;",
  "",
  "console.log(answer);",
  "```",
  "",
  // Long enough to fill the bubble's width on a phone and on a desktop.
  "That is all for today, and this last line is long enough to fill the bubble from one side to the other.",
].join("\n");

const UNSAFE = 'Look <script>alert("script")</script> and <img src=x onerror="alert(2)"> end.';

describe.skipIf(!hasChromium)("formatted replies in Chromium", () => {
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>> | undefined;

  beforeAll(async () => {
    const isChat = (system: string) => system.startsWith("You are ");
    llm = await startScriptedCompletions(
      (request) => {
        // Memory calls (facts, summary) get nothing to remember.
        if (!isChat(request.messages[0]?.content ?? "")) return "[]";
        const last = request.messages.at(-1)?.content ?? "";
        return last.includes("unsafe") ? UNSAFE : FORMATTED;
      },
      { tokenDelayMs: (request) => (isChat(request.messages[0]?.content ?? "") ? 40 : 0) },
    );
  });
  afterAll(async () => {
    await llm?.close();
  });

  const suite = useBrowserSuite({
    env: () => ({ LLM_PROVIDER: "openai", LLM_BASE_URL: `${llm?.baseUrl}`, LLM_MODEL: "scripted" }),
  });

  /**
   * Records in the page which formatted elements a streaming reply bubble (aria-busy) showed, and
   * the widest that bubble was, px.
   */
  async function watchStreaming(page: Page): Promise<void> {
    await page.evaluate(() => {
      const seen = new Set<string>();
      const watched = window as unknown as { __seen: Set<string>; __streamingWidth: number };
      watched.__seen = seen;
      watched.__streamingWidth = 0;
      const log = document.querySelector('[role="log"]');
      if (log === null) throw new Error("no message list");
      new MutationObserver(() => {
        const busy = log.querySelector('article[aria-busy="true"] .bubble__text');
        if (busy === null) return;
        for (const selector of ["strong", "li", "a[target=_blank]", "pre code"]) {
          if (busy.querySelector(selector)) seen.add(selector);
        }
        const bubble = busy.closest(".bubble");
        if (bubble !== null)
          watched.__streamingWidth = Math.max(watched.__streamingWidth, bubble.getBoundingClientRect().width);
      }).observe(log, { childList: true, subtree: true, characterData: true, attributes: true });
    });
  }

  /** Sends `text` and waits until a reply showing `replyStart` is there and has finished streaming. */
  async function send(page: Page, text: string, replyStart: string): Promise<void> {
    const box = page.getByRole("textbox", { name: "Type a message" });
    await box.fill(text);
    await page.getByRole("button", { name: "Send" }).click();
    const log = page.getByRole("log", { name: "Messages" });
    await log.locator("article.message--reply").filter({ hasText: replyStart }).waitFor({ timeout: 30_000 });
    await expect.poll(() => log.locator('article[aria-busy="true"]').count(), { timeout: 30_000 }).toBe(0);
    const status = page.getByRole("banner").locator(".chat-header__status");
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe("online");
  }

  /** The formatted reply shows bold, a two-item list, a safe link, a code block with Copy. */
  async function expectFormatted(reply: Locator): Promise<void> {
    const text = reply.locator(".bubble__text");
    expect(await text.locator("strong").allTextContents()).toEqual(["bold news"]);
    expect(await text.locator("em").allTextContents()).toEqual(["smiles"]);
    expect(await text.locator("ul > li").allTextContents()).toEqual(["first item", "second item"]);
    const link = text.getByRole("link", { name: "the guide" });
    expect(await link.getAttribute("href")).toBe("https://example.com/guide");
    expect(await link.getAttribute("target")).toBe("_blank");
    expect((await link.getAttribute("rel"))?.split(" ")).toEqual(
      expect.arrayContaining(["noopener", "noreferrer"]),
    );
    // A javascript: link is shown as its text only.
    expect(await text.locator("a").count()).toBe(1);
    await text.getByText("this", { exact: true }).waitFor();
    const code = text.locator("pre code");
    expect(await code.textContent()).toBe("const answer = 42;\n\nconsole.log(answer);\n");
    await text.getByRole("button", { name: "Copy code" }).waitFor();
  }

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: a formatted reply while streamed, at its end and after a reload; HTML stays text`, async () => {
      const { browser, url } = suite;
      const session = await demoSession(url);
      const phone = viewport === PHONE;
      const page = await openPage(browser, { viewport, hasTouch: phone, isMobile: phone });
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`${url}/maintenance`);
      await storeSession(page, session);
      const [character] = await ensureCharacters(page, 1);
      if (character === undefined) throw new Error("no character");
      await openChat(page, url, character.characterUUID);
      const log = page.getByRole("log", { name: "Messages" });
      const replies = log.getByRole("article", { name: `Reply from ${character.characterName}` });
      await replies.first().waitFor();

      await watchStreaming(page);
      await send(page, "Show me formatting", "Here is");
      const seen = await page.evaluate(() => [...(window as unknown as { __seen: Set<string> }).__seen]);
      expect(seen.sort()).toEqual(["a[target=_blank]", "li", "pre code", "strong"]);
      const formatted = replies.filter({ hasText: "bold news" });
      expect(await formatted.count()).toBe(1);
      await expectFormatted(formatted);
      // The reply keeps its width when it ends and its tools appear: its text is not wrapped again.
      const streamingWidth = await page.evaluate(
        () => (window as unknown as { __streamingWidth: number }).__streamingWidth,
      );
      const finished = await formatted.locator(".bubble").boundingBox();
      expect(streamingWidth).toBeGreaterThan(0);
      expect(Math.abs((finished?.width ?? 0) - streamingWidth)).toBeLessThan(1);
      if (!phone) {
        await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
        await formatted.getByRole("button", { name: "Copy code" }).click();
        await formatted.getByRole("button", { name: "Copied" }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
          "const answer = 42;\n\nconsole.log(answer);\n",
        );
      }

      await send(page, "Say something unsafe", "Look");
      const unsafe = replies.filter({ hasText: "Look" });
      await unsafe.getByText('<script>alert("script")</script>', { exact: false }).waitFor();
      await unsafe.getByText('<img src=x onerror="alert(2)">', { exact: false }).waitFor();
      expect(await log.locator("script, img[src='x']").count()).toBe(0);
      await page.screenshot({ path: `test-results/markdown-${label}.png`, fullPage: true });

      await page.reload();
      await replies.filter({ hasText: "bold news" }).waitFor();
      await expectFormatted(replies.filter({ hasText: "bold news" }));
      await replies.filter({ hasText: "Look" }).getByText("<script>", { exact: false }).waitFor();
      expect(await log.locator("script, img[src='x']").count()).toBe(0);
      expect(dialogs).toEqual([]);
      await closePage(page);
    });
  }
});
