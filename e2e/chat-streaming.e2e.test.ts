import type { Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../common/api";
import { callApi, DESKTOP, ensureCharacters, openChat, PHONE, signedInPage } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * Sending on the chat screen against the real server and the tiny model, with replies long
 * enough (200 tokens) to watch them stream: tokens show before the answer is done, Stop keeps
 * the partial reply, Continue appends, a dropped send is marked Failed and Retry reuses the
 * client message id (product.md §4 "Sending", product.md §8).
 */

describe.skipIf(!hasChromium)("chat sending in Chromium", () => {
  const suite = useBrowserSuite({ env: { LLM_MAX_TOKENS: "200" } });

  const ctx = () => {
    const { server, browser } = suite;
    return { server, browser, url: server.url };
  };

  it("streams tokens into the reply, Stop keeps the partial reply and Continue appends", async () => {
    const { browser, url } = ctx();
    const { page, session } = await signedInPage(browser, url, DESKTOP);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await openChat(page, url, character.characterUUID);
    const log = page.getByRole("log", { name: "Messages" });
    const replies = log.getByRole("article", { name: `Reply from ${character.characterName}` });
    await replies.first().waitFor();
    const status = page.getByRole("banner").locator(".chat-header__status");

    const box = page.getByRole("textbox", { name: "Type a message" });
    await box.fill("Once upon a time");
    await box.press("Shift+Enter");
    expect(await box.inputValue()).toBe("Once upon a time\n");
    await box.press("Enter");
    // A reply bubble that is still receiving tokens already shows text.
    const streaming = log.locator('article[aria-busy="true"]');
    const streamingText = async () =>
      (await streaming.count()) > 0 ? ((await streaming.locator(".bubble__text").textContent()) ?? "") : "";
    await expect
      .poll(async () => (await streamingText()).length, { timeout: 15_000, interval: 20 })
      .toBeGreaterThan(0);
    expect(await status.textContent()).toBe("replying...");
    await page.screenshot({ path: "test-results/chat-streaming.png" });
    // The tiny model can end its story between that check and the click: then the Stop button
    // is gone, nothing is left to stop, and the reply is stored whole (both are checked below).
    const stop = page.getByRole("button", { name: "Stop" });
    await stop.click({ timeout: 5000 }).catch(async (error: unknown) => {
      if ((await streaming.count()) > 0) throw error;
    });
    await expect.poll(() => streaming.count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => status.textContent()).toBe("online");

    const history = await callApi<{ data: ChatHistoryEntry[] }>(
      page,
      "GET",
      `/api/chat/history/paginated?uId=${session.user.id}&id=${character.characterUUID}&offset=0&limit=1`,
    );
    const stored = history.data[0];
    expect(stored?.chatHistoryMessage).toBe("Once upon a time");
    // The tiny model may end its story before the Stop reaches the server: then the reply is whole
    // (and may be split into several messages); a stopped one is kept as one unfinished message.
    expect(["stopped", "replied"]).toContain(stored?.chatHistoryStatus);
    const replyTexts = (await replies.locator(".bubble__text").allTextContents()).slice(1);
    if (stored?.chatHistoryStatus === "stopped") expect(replyTexts).toHaveLength(1);
    const shown = replyTexts.join(" ");
    expect(shown.length).toBeGreaterThan(0);
    // The reply stays on screen exactly as the server stored it, all of it at once.
    const squash = (text: string) => text.replace(/\s+/g, " ").trim();
    expect(squash(shown)).toBe(squash(stored?.chatHistoryReplyMessage ?? ""));

    await replies.last().getByRole("button", { name: "Continue" }).click();
    await expect
      .poll(async () => ((await replies.last().locator(".bubble__text").textContent()) ?? "").length, {
        timeout: 20_000,
      })
      .toBeGreaterThan(shown.length);
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe("online");
    const continued = (await replies.last().locator(".bubble__text").textContent()) ?? "";
    expect(squash(continued).startsWith(squash(shown).slice(0, 10))).toBe(true);
    expect(await replies.count()).toBe(2);
    await closePage(page);
  }, 60_000);

  it("marks a send the network dropped Failed, and Retry sends it once", async () => {
    // The limit itself now opens /pricing without 'Failed' (e2e/default-install-chat).
    const { browser, url } = ctx();
    const { page, session } = await signedInPage(browser, url, PHONE);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await openChat(page, url, character.characterUUID);
    const log = page.getByRole("log", { name: "Messages" });
    const box = page.getByRole("textbox", { name: "Type a message" });
    const drop = (route: Route) => route.abort("failed");
    await page.route("**/api/chat/message", drop);
    await box.fill("Are you there?");
    await page.getByRole("button", { name: "Send" }).click();
    const mine = log.getByRole("article", { name: "Your message" }).filter({ hasText: "Are you there?" });
    await mine.getByText("Failed").waitFor();
    await page.screenshot({ path: "test-results/chat-failed.png" });

    await page.unroute("**/api/chat/message", drop);
    await mine.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => mine.getByText("Failed").count(), { timeout: 20_000 }).toBe(0);
    await expect
      .poll(() => page.getByRole("banner").locator(".chat-header__status").textContent(), { timeout: 20_000 })
      .toBe("online");
    expect(await mine.count()).toBe(1);
    const history = await callApi<{ data: ChatHistoryEntry[] }>(
      page,
      "GET",
      `/api/chat/history/paginated?uId=${session.user.id}&id=${character.characterUUID}&offset=0&limit=10`,
    );
    expect(history.data.filter((entry) => entry.chatHistoryMessage === "Are you there?")).toHaveLength(1);
    await closePage(page);
  }, 60_000);
});
