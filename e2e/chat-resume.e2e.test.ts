import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedCompletions } from "../server/testing/completions-server";
import { DESKTOP, ensureCharacters, openChat, signedInPage } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * a reply still being written is followed after a reload instead of polled. A scripted
 * OpenAI-wire model writes a reply slowly (one word every TOKEN_DELAY_MS); the page is reloaded
 * mid-reply; the reloaded page follows it with GET /api/chat/stream: the text keeps growing in
 * its bubble, the history is not fetched again meanwhile, and the bubble ends with the whole reply.
 */
const ASK = "Tell me a slow story";
const REPLY =
  "Once upon a time a lighthouse keeper counted the waves every night, and each wave told her a new story about ships and stars.";
const TOKEN_DELAY_MS = 200;
/** Asked with this word, the reply comes three times slower (about 16 s). */
const SLOWER = "slower";

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * A proxy in front of the page that cuts every reply stream of POST /api/chat/message after its
 * entry and two tokens (no `done`); `lastId` is the id of the last event let through.
 */
async function cutReplyStreams(page: Page): Promise<{ lastId: string }> {
  const cut = { lastId: "" };
  await page.route("**/api/chat/message", async (route) => {
    const answer = await route.fetch();
    const blocks = (await answer.text()).split("\n\n").filter((text) => text.includes("data:"));
    const kept = blocks.slice(0, 3);
    cut.lastId = /^id: (\d+)$/m.exec(kept.at(-1) ?? "")?.[1] ?? "";
    await route.fulfill({
      status: 200,
      headers: { "content-type": "text/event-stream" },
      body: `${kept.join("\n\n")}\n\n`,
    });
  });
  return cut;
}

describe.skipIf(!hasChromium)("following a reply after a reload, in Chromium", () => {
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>> | undefined;

  beforeAll(async () => {
    // Only the chat reply to ASK is slow; other model calls (memories, greetings) answer at once.
    const isAsk = (messages: Array<{ content: string }>) => messages.some((m) => m.content.includes(ASK));
    llm = await startScriptedCompletions((request) => (isAsk(request.messages) ? REPLY : "Hello there."), {
      tokenDelayMs: (request) => {
        const asked = request.messages.at(-1)?.content ?? "";
        return isAsk(request.messages) ? TOKEN_DELAY_MS * (asked.includes(SLOWER) ? 3 : 1) : 0;
      },
    });
  });

  afterAll(async () => {
    await llm?.close();
  });

  const suite = useBrowserSuite({
    env: () => ({ LLM_PROVIDER: "openai", LLM_BASE_URL: `${llm?.baseUrl}`, LLM_MODEL: "scripted" }),
  });

  it("reload mid-reply: the bubble keeps growing from GET /api/chat/stream, without a history poll", async () => {
    const { browser, url } = suite;
    const { page } = await signedInPage(browser, url, DESKTOP);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await openChat(page, url, character.characterUUID);
    const log = page.getByRole("log", { name: "Messages" });
    const replies = log.getByRole("article", { name: `Reply from ${character.characterName}` });
    const streaming = log.locator('article[aria-busy="true"]');
    const streamingText = async () =>
      (await streaming.count()) > 0
        ? squash((await streaming.locator(".bubble__text").textContent()) ?? "")
        : "";

    const box = page.getByRole("textbox", { name: "Type a message" });
    await box.fill(ASK);
    await box.press("Enter");
    // The message is sent (on a loaded CI machine the first send of a fresh server can take a while).
    await log
      .getByRole("article", { name: "Your message" })
      .filter({ hasText: ASK })
      .waitFor({ timeout: 20_000 });
    // A few words in (the reply takes about 5 s): reload.
    await expect
      .poll(async () => (await streamingText()).split(" ").length, { timeout: 25_000, interval: 50 })
      .toBeGreaterThanOrEqual(4);
    const beforeReload = await streamingText();
    expect(REPLY.startsWith(beforeReload)).toBe(true);

    const history: string[] = [];
    const follows: string[] = [];
    const watch = (request: Request) => {
      const path = new URL(request.url()).pathname;
      if (path === "/api/chat/history/paginated") history.push(request.url());
      if (path === "/api/chat/stream") follows.push(request.url());
    };
    page.on("request", watch);
    await page.reload();
    await log.waitFor();

    // The reloaded page shows the reply growing in a busy bubble, word after word.
    const seen: string[] = [];
    await expect
      .poll(
        async () => {
          const text = await streamingText();
          if (text !== "" && text !== seen.at(-1)) seen.push(text);
          return seen.length;
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBeGreaterThanOrEqual(3);
    for (const [index, text] of seen.entries()) {
      expect(REPLY.startsWith(text), text).toBe(true);
      if (index > 0) expect(text.length).toBeGreaterThan(seen[index - 1]?.length ?? 0);
    }
    expect(await page.getByRole("banner").locator(".chat-header__status").textContent()).toBe("replying...");

    // It ends with the whole reply, once, as stored.
    await expect.poll(() => streaming.count(), { timeout: 20_000 }).toBe(0);
    const last = squash((await replies.last().locator(".bubble__text").textContent()) ?? "");
    expect(last).toBe(REPLY);
    expect(await log.getByText(REPLY).count()).toBe(1);
    await expect
      .poll(() => page.getByRole("banner").locator(".chat-header__status").textContent())
      .toBe("online");

    // One follow of the newest entry from its first event, and the history loaded once, not polled.
    expect(follows).toHaveLength(1);
    const query = new URL(follows[0] ?? "").searchParams;
    expect(query.get("after")).toBe("0");
    expect(query.get("id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(history).toHaveLength(1);
    page.off("request", watch);
    await page.screenshot({ path: "test-results/chat-resume.png" });
    await closePage(page);
  }, 90_000);

  it("a send whose stream is cut before its end is resumed from its last event id", async () => {
    const { browser, url } = suite;
    const { page } = await signedInPage(browser, url, DESKTOP);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await openChat(page, url, character.characterUUID);
    const cut = await cutReplyStreams(page);
    const follows: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/chat/stream") follows.push(request.url());
    });
    const box = page.getByRole("textbox", { name: "Type a message" });
    await box.fill(`${ASK} again`);
    await box.press("Enter");

    const log = page.getByRole("log", { name: "Messages" });
    const reply = log.getByRole("article", { name: `Reply from ${character.characterName}` }).last();
    await expect
      .poll(async () => squash((await reply.locator(".bubble__text").textContent()) ?? ""), {
        timeout: 30_000,
      })
      .toBe(REPLY);
    expect(cut.lastId).not.toBe("");
    expect(follows).toHaveLength(1);
    expect(new URL(follows[0] ?? "").searchParams.get("after")).toBe(cut.lastId);
    const mine = log.getByRole("article", { name: "Your message" }).filter({ hasText: `${ASK} again` });
    expect(await mine.getByText("Failed").count()).toBe(0);
    await expect
      .poll(() => page.getByRole("banner").locator(".chat-header__status").textContent())
      .toBe("online");
    await closePage(page);
  }, 60_000);

  it("a cut send that cannot be followed again is handed to the history, not marked Failed", async () => {
    const { browser, url } = suite;
    const { page } = await signedInPage(browser, url, DESKTOP);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await openChat(page, url, character.characterUUID);
    await cutReplyStreams(page);
    const follows: string[] = [];
    const history: string[] = [];
    await page.route("**/api/chat/stream?**", (route) => {
      follows.push(route.request().url());
      return route.abort("connectionrefused");
    });
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/chat/history/paginated") history.push(request.url());
    });
    const box = page.getByRole("textbox", { name: "Type a message" });
    await box.fill(`${ASK} once more`);
    await box.press("Enter");

    const log = page.getByRole("log", { name: "Messages" });
    const reply = log.getByRole("article", { name: `Reply from ${character.characterName}` }).last();
    await expect
      .poll(async () => squash((await reply.locator(".bubble__text").textContent()) ?? ""), {
        timeout: 30_000,
      })
      .toBe(REPLY);
    // The bounded resume attempts, then the history loaded again: it holds the reply.
    expect(follows).toHaveLength(4);
    expect(history.length).toBeGreaterThanOrEqual(1);
    const mine = log.getByRole("article", { name: "Your message" }).filter({ hasText: `${ASK} once more` });
    expect(await mine.count()).toBe(1);
    expect(await mine.getByText("Failed").count()).toBe(0);
    await closePage(page);
  }, 60_000);

  it("reload mid-reply while the stream is unreachable: the history polls until the reply is there", async () => {
    const { browser, url } = suite;
    const { page } = await signedInPage(browser, url, DESKTOP);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await openChat(page, url, character.characterUUID);
    const log = page.getByRole("log", { name: "Messages" });
    const box = page.getByRole("textbox", { name: "Type a message" });
    await box.fill(`${ASK} ${SLOWER}`);
    await box.press("Enter");
    await log
      .locator('article[aria-busy="true"]')
      .getByText(/Once upon/)
      .waitFor({ timeout: 15_000 });

    const follows: string[] = [];
    const history: string[] = [];
    await page.route("**/api/chat/stream?**", (route) => {
      follows.push(route.request().url());
      return route.abort("connectionrefused");
    });
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/chat/history/paginated") history.push(request.url());
    });
    await page.reload();
    const reply = log.getByRole("article", { name: `Reply from ${character.characterName}` }).last();
    await expect
      .poll(async () => squash((await reply.locator(".bubble__text").textContent()) ?? ""), {
        timeout: 30_000,
      })
      .toBe(REPLY);
    expect(follows).toHaveLength(4);
    // The page load, then a poll every 2 s while the reply was still being written.
    expect(history.length).toBeGreaterThanOrEqual(3);
    await closePage(page);
  }, 60_000);
});
