import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatHistoryEntry, LoginData } from "../common/api";
import { type CompletionsRequest, startScriptedCompletions } from "../server/testing/completions-server";
import { callApi, DESKTOP, ensureCharacters, openChat, PHONE } from "./chat.helpers";
import { closePage, demoSession, hasChromium, openPage, storeSession } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * Swipes, regenerate, edit and rewind on the chat screen in Chromium on a phone (touch)
 * and a desktop, against the real server with a scripted model that numbers its replies and
 * keeps every prompt it is sent:
 * (a) Regenerate twice gives three swipes (the bubble fills as the tokens arrive), the
 *     arrows (and on the phone a touch swipe) go back to the second, and the next message's prompt
 *     holds the second swipe, not the first or third;
 * (b) the user's message and a reply are edited inline (an empty message is refused in the
 *     browser with the server's sentence) and stay edited after a reload;
 * (c) rewinding to an earlier message removes every later one, and Delete that message, also after a reload.
 */

/** The scripted character's words: numbered, so every reply is told apart. */
const replyWords = (n: number) => `Reply number ${n} about the old lighthouse by the sea.`;

describe.skipIf(!hasChromium)("swipes, edits and rewind in Chromium", () => {
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>> | undefined;
  let counter = 0;
  /** The chat prompts the model was sent (the character's: "You are <name>…"), in order. */
  const chatPrompts: CompletionsRequest[] = [];

  beforeAll(async () => {
    llm = await startScriptedCompletions(
      (request) => {
        const system = request.messages[0]?.content ?? "";
        // Memory calls (facts, summary) get nothing to remember.
        if (!system.startsWith("You are ")) return "[]";
        chatPrompts.push(request);
        counter += 1;
        return replyWords(counter);
      },
      // Chat replies arrive word by word, so the regenerated bubble is seen filling.
      { tokenDelayMs: (request) => ((request.messages[0]?.content ?? "").startsWith("You are ") ? 40 : 0) },
    );
  });
  afterAll(async () => {
    await llm?.close();
  });

  const suite = useBrowserSuite({
    env: () => ({ LLM_PROVIDER: "openai", LLM_BASE_URL: `${llm?.baseUrl}`, LLM_MODEL: "scripted" }),
  });

  /** A fresh demo user's chat with one character, on a page of `viewport` (touch on the phone). */
  async function openFreshChat(viewport: typeof PHONE) {
    const { browser, url } = suite;
    const session = await demoSession(url);
    const phone = viewport === PHONE;
    const page = await openPage(browser, { viewport, hasTouch: phone });
    await page.goto(`${url}/maintenance`);
    await storeSession(page, session);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await openChat(page, url, character.characterUUID);
    const log = page.getByRole("log", { name: "Messages" });
    const replies = log.getByRole("article", { name: `Reply from ${character.characterName}` });
    await replies.first().waitFor();
    return { page, session, character, log, replies };
  }

  /** Waits until the confirm dialog is gone: while it shows, the page behind is hidden from roles. */
  const confirmClosed = (page: Page) => page.locator(".swal2-container").waitFor({ state: "detached" });

  const status = (page: Page) => page.getByRole("banner").locator(".chat-header__status");

  /** Sends `text` and waits until its reply is there and the chat is online again. */
  async function send(page: Page, text: string): Promise<void> {
    const box = page.getByRole("textbox", { name: "Type a message" });
    await box.fill(text);
    await page.getByRole("button", { name: "Send" }).click();
    await page
      .getByRole("log", { name: "Messages" })
      .getByRole("article", { name: "Your message" })
      .filter({ hasText: text })
      .waitFor();
    await expect.poll(() => status(page).textContent(), { timeout: 20_000 }).toBe("online");
    await expect.poll(() => page.locator('article[aria-busy="true"]').count(), { timeout: 20_000 }).toBe(0);
  }

  /** The chat's stored entries, oldest first (GET /chat/history/paginated, newest 20). */
  async function stored(page: Page, session: LoginData, characterId: string): Promise<ChatHistoryEntry[]> {
    const answer = await callApi<{ data: ChatHistoryEntry[] }>(
      page,
      "GET",
      `/api/chat/history/paginated?uId=${session.user.id}&id=${characterId}&offset=0&limit=20`,
    );
    return answer.data;
  }

  const textOf = async (bubble: Locator) =>
    ((await bubble.locator(".bubble__text").textContent()) ?? "").trim();

  /**
   * A touch drag across `bubble` (CDP touch events: Chromium makes them pointer events): sideways
   * for a swipe, or down as a scroll would start.
   */
  async function touchSwipe(
    page: Page,
    bubble: Locator,
    direction: "left" | "right" | "down",
  ): Promise<void> {
    const box = await bubble.locator(".bubble__text").boundingBox();
    if (box === null) throw new Error("the bubble has no box");
    const y = box.y + box.height / 2;
    const [from, to] =
      direction === "right"
        ? [
            { x: box.x + 10, y },
            { x: box.x + 150, y },
          ]
        : direction === "left"
          ? [
              { x: box.x + box.width - 10, y },
              { x: box.x + box.width - 150, y },
            ]
          : [
              { x: box.x + 20, y: box.y },
              { x: box.x + 50, y: box.y + 150 },
            ];
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [from] });
    for (let step = 1; step <= 8; step += 1) {
      const point = { x: from.x + ((to.x - from.x) * step) / 8, y: from.y + ((to.y - from.y) * step) / 8 };
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [point] });
    }
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await cdp.detach();
  }

  /**
   * Records in the page, by its own clock, every text a streaming reply bubble (aria-busy) shows
   * from now on (read them with `streamedTexts`): the test driver may be too slow to see them.
   */
  async function watchStreaming(page: Page): Promise<void> {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __streamed: string[] }).__streamed = seen;
      const log = document.querySelector('[role="log"]');
      if (log === null) throw new Error("no message list");
      new MutationObserver(() => {
        const busy = log.querySelector('article[aria-busy="true"] .bubble__text');
        if (busy) seen.push((busy.textContent ?? "").trim());
      }).observe(log, { childList: true, subtree: true, characterData: true, attributes: true });
    });
  }

  const streamedTexts = (page: Page) =>
    page.evaluate(() => (window as unknown as { __streamed: string[] }).__streamed);

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: regenerate twice, go back to the second reply, and the model continues from it`, async () => {
      const { page, session, character, replies } = await openFreshChat(viewport);
      await send(page, "Tell me about the sea");
      const newest = replies.last();
      const position = newest.getByRole("status", { name: /^Reply \d of \d$/ });
      const regenerate = newest.getByRole("button", { name: "Regenerate reply" });
      // The greeting is not regenerated: only the newest reply has the button.
      expect(await page.getByRole("button", { name: "Regenerate reply" }).count()).toBe(1);

      for (const count of [2, 3]) {
        await watchStreaming(page);
        await regenerate.click();
        await expect.poll(() => position.textContent(), { timeout: 20_000 }).toBe(`${count}/${count}`);
        await regenerate.waitFor({ timeout: 20_000 });
        // The bubble emptied and filled word by word while the new reply was written.
        const seen = await streamedTexts(page);
        const final = await textOf(newest);
        expect(
          seen.some((text) => text.length > 0 && text.length < final.length && final.startsWith(text)),
        ).toBe(true);
      }
      const entry = (await stored(page, session, character.characterUUID)).at(-1);
      const swipes = entry?.chatHistorySwipes ?? [];
      expect(swipes).toHaveLength(3);
      expect(entry?.chatHistorySwipeIndex).toBe(2);
      const [first, second, third] = swipes as [string, string, string];
      expect(new Set(swipes).size).toBe(3);
      expect(await textOf(newest)).toBe(third);
      await page.screenshot({ path: `test-results/swipes-three-${label}.png` });

      if (label === "phone") {
        // Touch: a swipe to the right shows the previous reply, one to the left the next.
        await touchSwipe(page, newest, "right");
        await expect.poll(() => position.textContent()).toBe("2/3");
        await touchSwipe(page, newest, "right");
        await expect.poll(() => position.textContent()).toBe("1/3");
        expect(await textOf(newest)).toBe(first);
        await touchSwipe(page, newest, "left");
        await expect.poll(() => position.textContent()).toBe("2/3");
        // Vertical drags stay the browser's: the list still scrolls over a swipeable bubble.
        expect(
          await newest.locator(".bubble").evaluate((bubble) => getComputedStyle(bubble).touchAction),
        ).toBe("pan-y");
      } else {
        await newest.getByRole("button", { name: "Previous reply" }).click();
        await expect.poll(() => position.textContent()).toBe("2/3");
        await newest.getByRole("button", { name: "Previous reply" }).click();
        await expect.poll(() => position.textContent()).toBe("1/3");
        expect(await newest.getByRole("button", { name: "Previous reply" }).isDisabled()).toBe(true);
        expect(await textOf(newest)).toBe(first);
        await newest.getByRole("button", { name: "Next reply" }).click();
      }
      await expect.poll(() => position.textContent()).toBe("2/3");
      await expect.poll(() => textOf(newest)).toBe(second);
      await expect
        .poll(
          async () => (await stored(page, session, character.characterUUID)).at(-1)?.chatHistorySwipeIndex,
        )
        .toBe(1);
      await page.screenshot({ path: `test-results/swipes-second-${label}.png` });

      // The next message is answered from the second reply.
      await send(page, "And what happened next?");
      const prompt = chatPrompts.findLast((request) =>
        request.messages.some((message) => message.content.includes("And what happened next?")),
      );
      const words = JSON.stringify(prompt?.messages ?? []);
      expect(words).toContain(second);
      expect(words).not.toContain(first);
      expect(words).not.toContain(third);
      await closePage(page);
    }, 90_000);

    it(`${label}: edits of the user's message and of a reply stay after a reload`, async () => {
      const { page, session, character, log, replies } = await openFreshChat(viewport);
      await send(page, "I like tea");
      const mine = log.getByRole("article", { name: "Your message" }).last();

      await mine.getByRole("button", { name: "Message actions" }).click();
      await mine.getByRole("menuitem", { name: "Edit" }).click();
      const messageBox = mine.getByRole("textbox", { name: "Edit your message" });
      // The server's rules in the browser: an empty message is refused with its sentence, nothing sent.
      let edits = 0;
      page.on("request", (request) => {
        if (request.url().endsWith("/api/chat/edit")) edits += 1;
      });
      await messageBox.fill("   ");
      await mine.getByRole("button", { name: "Save" }).click();
      await mine.getByRole("alert").filter({ hasText: "The message is empty." }).waitFor();
      expect(await messageBox.getAttribute("aria-invalid")).toBe("true");
      expect(edits).toBe(0);
      await messageBox.fill("I like green tea");
      await mine.getByRole("button", { name: "Save" }).click();
      await messageBox.waitFor({ state: "detached" });
      expect(await textOf(mine)).toBe("I like green tea");

      const reply = replies.last();
      await reply.getByRole("button", { name: "Message actions" }).click();
      await reply.getByRole("menuitem", { name: "Edit" }).click();
      const replyBox = reply.getByRole("textbox", { name: "Edit the reply" });
      await replyBox.fill("Green tea it is, with a little honey.");
      await page.screenshot({ path: `test-results/swipes-edit-${label}.png` });
      await reply.getByRole("button", { name: "Save" }).click();
      await replyBox.waitFor({ state: "detached" });
      expect(await textOf(reply)).toBe("Green tea it is, with a little honey.");
      expect(edits).toBe(2);

      await page.reload();
      await log.getByRole("article", { name: "Your message" }).first().waitFor();
      expect(await textOf(log.getByRole("article", { name: "Your message" }).last())).toBe(
        "I like green tea",
      );
      expect(await textOf(replies.last())).toBe("Green tea it is, with a little honey.");
      const newest = (await stored(page, session, character.characterUUID)).at(-1);
      expect(newest?.chatHistoryMessage).toBe("I like green tea");
      expect(newest?.chatHistoryReplyMessage).toBe("Green tea it is, with a little honey.");
      await closePage(page);
    }, 90_000);

    it(`${label}: rewinding to an earlier message removes every later one, and Delete that message, also after a reload`, async () => {
      const { page, session, character, log, replies } = await openFreshChat(viewport);
      for (const text of ["First question", "Second question", "Third question"]) await send(page, text);
      const mine = log.getByRole("article", { name: "Your message" });
      expect(await mine.count()).toBe(3);
      const before = await stored(page, session, character.characterUUID);
      const firstEntry = before.find((entry) => entry.chatHistoryMessage === "First question");
      if (firstEntry === undefined) throw new Error("the first question is not stored");

      const first = mine.filter({ hasText: "First question" });
      await first.getByRole("button", { name: "Message actions" }).click();
      await first.getByRole("menuitem", { name: "Rewind to here" }).click();
      await page.getByRole("button", { name: "Yes, rewind" }).click();
      await confirmClosed(page);
      await expect.poll(() => mine.count(), { timeout: 15_000 }).toBe(1);
      expect(await mine.first().textContent()).toContain("First question");
      // The greeting and the first question's reply stay.
      expect(await replies.count()).toBe(2);
      expect(await textOf(replies.last())).toBe(firstEntry.chatHistoryReplyMessage);
      await page.screenshot({ path: `test-results/swipes-rewind-${label}.png` });

      await page.reload();
      await mine.first().waitFor();
      expect(await mine.allTextContents()).toEqual([expect.stringContaining("First question")]);
      expect(await replies.count()).toBe(2);
      const after = await stored(page, session, character.characterUUID);
      expect(after.map((entry) => entry.chatHistoryUUID)).toEqual(
        before.slice(0, before.indexOf(firstEntry) + 1).map((entry) => entry.chatHistoryUUID),
      );

      // Delete takes the message with its reply, and nothing else (the greeting stays).
      await mine.first().getByRole("button", { name: "Message actions" }).click();
      await mine.first().getByRole("menuitem", { name: "Delete" }).click();
      await page.getByRole("button", { name: "Yes, delete" }).click();
      await confirmClosed(page);
      await expect.poll(() => mine.count(), { timeout: 15_000 }).toBe(0);
      expect(await replies.count()).toBe(1);
      await page.reload();
      await replies.first().waitFor();
      expect(await mine.count()).toBe(0);
      expect(await replies.count()).toBe(1);
      expect(
        (await stored(page, session, character.characterUUID)).map((entry) => entry.chatHistoryUUID),
      ).toEqual(before.slice(0, before.indexOf(firstEntry)).map((entry) => entry.chatHistoryUUID));
      await closePage(page);
    }, 90_000);

    it(`${label}: a card's alternate greetings are swipes without Regenerate; at the limit Regenerate opens /pricing`, async () => {
      const { browser, url, server } = suite;
      const session = await demoSession(url);
      const page = await openPage(browser, { viewport });
      await page.goto(`${url}/maintenance`);
      await storeSession(page, session);
      const card = {
        spec: "chara_card_v2",
        spec_version: "2.0",
        data: {
          name: "Mira",
          description: "A lighthouse keeper.",
          first_mes: "Welcome to the lighthouse.",
          alternate_greetings: ["Oh! A visitor in this storm?", "You found the old stairs."],
        },
      };
      const imported = await page.evaluate(async (text) => {
        const token = JSON.parse(localStorage.getItem("token") ?? "{}").token as string;
        const body = new FormData();
        body.set("card", new File([text], "mira.json", { type: "application/json" }));
        const answer = await fetch("/api/characters/import", {
          method: "POST",
          headers: { Authorization: `Bearer ${token}` },
          body,
        });
        return (await answer.json()) as { success: number; data: { characterUUID: string } };
      }, JSON.stringify(card));
      expect(imported.success).toBe(1);
      await openChat(page, url, imported.data.characterUUID);
      const log = page.getByRole("log", { name: "Messages" });
      const greeting = log.getByRole("article", { name: "Reply from Mira" }).first();
      const position = greeting.getByRole("status", { name: /^Reply \d of \d$/ });
      await position.waitFor();
      expect(await position.textContent()).toBe("1/3");
      expect(await textOf(greeting)).toBe("Welcome to the lighthouse.");
      expect(await greeting.getByRole("button", { name: "Regenerate reply" }).count()).toBe(0);
      await greeting.getByRole("button", { name: "Next reply" }).click();
      await expect.poll(() => position.textContent()).toBe("2/3");
      expect(await textOf(greeting)).toBe("Oh! A visitor in this storm?");
      await page.screenshot({ path: `test-results/swipes-greeting-${label}.png` });

      // At the message limit a regeneration is refused like a send: the message, then /pricing.
      await send(page, "Hello Mira");
      const month = new Date().toISOString().slice(0, 7);
      await server.db
        .updateTable("users")
        .set({ quota_period: "month", chat_limit: 2, chat_count: 2, chat_period: month, extra_messages: 0 })
        .where("id", "=", session.user.id)
        .execute();
      await log
        .getByRole("article", { name: "Reply from Mira" })
        .last()
        .getByRole("button", { name: "Regenerate reply" })
        .click();
      await page.waitForURL("**/pricing", { timeout: 30_000 });
      await page
        .getByRole("alert")
        .filter({ hasText: "You have reached your limit of 2 messages" })
        .waitFor();
      await closePage(page);
    }, 90_000);
  }
});
