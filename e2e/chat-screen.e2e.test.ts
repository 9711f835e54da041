import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  callApi,
  DESKTOP,
  ensureCharacters,
  openChat,
  PHONE,
  signedInPage,
  withoutBrowserSpeech,
} from "./chat.helpers";
import { closePage, expectToast, hasChromium, SUCCESS } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The chat screen in Chromium against the real server and the tiny model (product.md §2 "Chat
 * screen", product.md §4, 5, 8, 9): sidebar and header on phone and desktop, New Chat, a group of
 * three, history paging, settings and memories, capabilities and the emoji picker.
 */

describe.skipIf(!hasChromium)("chat screen in Chromium", () => {
  const suite = useBrowserSuite();

  const ctx = () => {
    const { server, browser } = suite;
    return { server, browser, url: server.url };
  };

  const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/chat-${name}.png` });

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`shows the sidebar and the header on ${label}`, async () => {
      const { browser, url } = ctx();
      const { page, session } = await signedInPage(browser, url, viewport);
      const [character] = await ensureCharacters(page, 1);
      if (character === undefined) throw new Error("no character");
      await openChat(page, url, character.characterUUID);

      const header = page.getByRole("banner");
      await header.getByRole("heading", { name: character.characterName }).waitFor();
      await header.getByText("online", { exact: true }).waitFor();
      const sidebar = page.getByRole("complementary", { name: "Chat sidebar" });
      const toggle = page.getByRole("button", { name: "Toggle sidebar" });
      if (label === "phone") {
        // A drawer: closed at first, opened by the toggle, closed by its own button.
        expect(await sidebar.isVisible()).toBe(false);
        await toggle.click();
      }
      await sidebar.getByText(session.user.name || session.user.userName, { exact: true }).waitFor();
      await sidebar.getByText("online", { exact: true }).waitFor();
      const link = sidebar.getByRole("link", { name: `Chat with ${character.characterName}` });
      expect(await link.getAttribute("href")).toBe(`/character-select/${character.characterUUID}`);
      await shot(page, `sidebar-${label}`);
      if (label === "phone") {
        await sidebar.getByRole("button", { name: "Close sidebar" }).click();
        await expect.poll(() => sidebar.isVisible()).toBe(false);
      } else {
        await toggle.click();
        await expect.poll(() => sidebar.isVisible()).toBe(false);
      }

      // Tapping the photo shows it full size with a Close button.
      await page.getByRole("button", { name: `Show the photo of ${character.characterName}` }).click();
      const viewer = page.getByRole("dialog", { name: `Photo of ${character.characterName}` });
      await viewer.getByRole("img").waitFor();
      await viewer.getByRole("button", { name: "Close" }).click();
      await expect.poll(() => viewer.isVisible()).toBe(false);

      // The top menu.
      await page.getByRole("button", { name: "Chat menu" }).click();
      for (const name of ["New Chat", "Start Group", "Settings"])
        await page.getByRole("button", { name, exact: true }).waitFor();
      const links: Array<[string, string]> = [
        ["Change Character", "/characters/list"],
        ["Update Profile", "/user/profile"],
        ["Change Password", "/user/change-password"],
        ["F.A.Q", "/faq"],
        ["Logout", "/logout"],
      ];
      for (const [name, href] of links)
        expect(await page.getByRole("link", { name, exact: true }).getAttribute("href")).toBe(href);
      await shot(page, `menu-${label}`);
      await page.keyboard.press("Escape");
      await closePage(page);
    });
  }

  it("New Chat asks first, clears the history and the greeting returns", async () => {
    const { browser, url } = ctx();
    const { page } = await signedInPage(browser, url);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await openChat(page, url, character.characterUUID);
    const log = page.getByRole("log", { name: "Messages" });
    const replies = log.getByRole("article", { name: `Reply from ${character.characterName}` });
    await replies.first().waitFor();
    const greeting = (await replies.first().locator(".bubble__text").textContent()) ?? "";
    expect(greeting.length).toBeGreaterThan(0);

    const box = page.getByRole("textbox", { name: "Type a message" });
    await box.fill("Hello there");
    await box.press("Enter");
    await log.getByRole("article", { name: "Your message" }).getByText("Hello there").waitFor();
    await expect.poll(() => replies.count(), { timeout: 20_000 }).toBe(2);
    await page.getByRole("banner").getByText("online", { exact: true }).waitFor();

    await page.getByRole("button", { name: "Chat menu" }).click();
    await page.getByRole("button", { name: "New Chat" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Are you sure you want to start new chat?" }).waitFor();
    await dialog.getByText("Your current chat history will be deleted!").waitFor();
    const colour = (name: string) =>
      dialog.getByRole("button", { name }).evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await colour("Yes, start new!")).toBe("rgb(199, 0, 57)");
    expect(await colour("Cancel")).toBe("rgb(170, 170, 170)");
    await dialog.getByRole("button", { name: "Yes, start new!" }).click();

    await expect.poll(() => log.getByRole("article", { name: "Your message" }).count()).toBe(0);
    await expect.poll(() => replies.count(), { timeout: 10_000 }).toBe(1);
    expect(await replies.first().locator(".bubble__text").textContent()).toBe(greeting);
    await closePage(page);
  });

  it("a group of three: the named character replies first, members can be added and removed", async () => {
    const { browser, url } = ctx();
    const { page, session } = await signedInPage(browser, url);
    await ctx()
      .server.db.updateTable("users")
      .set({ character_limit: 10 })
      .where("id", "=", session.user.id)
      .execute();
    const all = await ensureCharacters(page, 5);
    const [first, second, third, fourth, fifth] = all;
    if (!first || !second || !third || !fourth || !fifth) throw new Error("characters missing");

    // Start Group from a one-to-one chat (the menu), then add two members in the sidebar.
    await openChat(page, url, first.characterUUID);
    await page.getByRole("button", { name: "Chat menu" }).click();
    await page.getByRole("button", { name: "Start Group" }).click();
    const sidebar = page.getByRole("complementary", { name: "Chat sidebar" });
    await sidebar.getByRole("button", { name: `Add ${second.characterName} to the group` }).click();
    await sidebar.getByRole("heading", { name: "Current Members" }).waitFor();
    await sidebar.getByRole("button", { name: `Add ${third.characterName} to the group` }).click();
    await sidebar.getByRole("button", { name: `Remove ${third.characterName} from the group` }).waitFor();
    await sidebar.getByRole("heading", { name: "Not in Group" }).waitFor();
    await shot(page, "group");

    // Named: the third member answers first (turn order).
    const log = page.getByRole("log", { name: "Messages" });
    const box = page.getByRole("textbox", { name: "Type a message" });
    await box.fill(`${third.characterName}, what do you think?`);
    await box.press("Enter");
    const replies = log.getByRole("article", { name: /^Reply from / });
    const before = await replies.count();
    await expect.poll(() => replies.count(), { timeout: 30_000 }).toBeGreaterThan(before);
    expect(await replies.nth(before).getAttribute("aria-label")).toBe(`Reply from ${third.characterName}`);
    await page.getByRole("banner").getByText("online", { exact: true }).waitFor({ timeout: 30_000 });

    // A full group (4 members) offers no add button; the server refuses a 5th anyway.
    await sidebar.getByRole("button", { name: `Add ${fourth.characterName} to the group` }).click();
    await sidebar.getByRole("button", { name: `Remove ${fourth.characterName} from the group` }).waitFor();
    await sidebar.getByText("A group holds at most 4 members.").waitFor();
    expect(
      await sidebar.getByRole("button", { name: `Add ${fifth.characterName} to the group` }).count(),
    ).toBe(0);
    await sidebar.getByRole("button", { name: `Remove ${fourth.characterName} from the group` }).click();
    await sidebar.getByRole("button", { name: `Add ${fourth.characterName} to the group` }).waitFor();
    await closePage(page);
  }, 90_000);

  it("pages 95 stored messages by 10 when scrolled to the top, without duplicates or jumps", async () => {
    const { browser, url, server } = ctx();
    const { page, session } = await signedInPage(browser, url, PHONE);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await openChat(page, url, character.characterUUID);
    const log = page.getByRole("log", { name: "Messages" });
    await log.getByRole("article").first().waitFor();
    const chatSession = await server.db
      .selectFrom("chat_sessions")
      .select("id")
      .where("user_id", "=", session.user.id)
      .executeTakeFirstOrThrow();
    const base = Date.now() * 1000;
    const rows = Array.from({ length: 95 }, (_unused, i) => ({
      id: randomUUID(),
      session_id: chatSession.id,
      character_id: character.characterUUID,
      message: `question ${i}`,
      message_image: "",
      send_time: Date.now() - (95 - i) * 60_000,
      reply_message: `answer ${i}`,
      reply_image: "",
      reply_audio_url: "",
      reply_time: Date.now() - (95 - i) * 60_000 + 1000,
      image_loading: 0,
      status: "replied",
      error: "",
      seq: base + i,
      client_message_id: "",
    }));
    await server.db.insertInto("chat_history").values(rows).execute();
    await page.reload();
    await log.getByText("answer 94", { exact: true }).waitFor();
    expect(await log.getByText("question 84", { exact: true }).count()).toBe(0);

    let lowest = 85;
    while (lowest > 0) {
      const anchor = log.getByText(`question ${lowest}`, { exact: true });
      await log.evaluate((element) => {
        element.scrollTop = 0;
      });
      const next = Math.max(lowest - 10, 0);
      await log.getByText(`question ${next}`, { exact: true }).waitFor();
      const logBox = await log.boundingBox();
      const anchorBox = await anchor.boundingBox();
      // The message that was at the top is still in view: no jump.
      expect(
        logBox && anchorBox && anchorBox.y >= logBox.y - 1 && anchorBox.y < logBox.y + logBox.height,
      ).toBe(true);
      lowest = next;
    }
    for (const i of [0, 5, 44, 94])
      expect(await log.getByText(`question ${i}`, { exact: true }).count()).toBe(1);
    expect(await log.getByRole("article", { name: "Your message" }).count()).toBe(95);
    await shot(page, "paging");
    await closePage(page);
  });

  it("saves settings, restores them after a reload, applies dark mode and lists and deletes memories", async () => {
    const { browser, url, server } = ctx();
    const { page, session } = await signedInPage(browser, url);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await server.db
      .insertInto("memories")
      .values({
        id: randomUUID(),
        user_id: session.user.id,
        character_id: character.characterUUID,
        fact: "likes green tea",
        created_at: Date.now(),
      })
      .execute();
    await withoutBrowserSpeech(page);
    await openChat(page, url, character.characterUUID);
    const open = async () => {
      await page.getByRole("button", { name: "Chat menu" }).click();
      await page.getByRole("button", { name: "Settings" }).click();
      return page.getByRole("dialog", { name: "Settings" });
    };
    let dialog = await open();
    // product.md §9 defaults: notifications on, everything else off, 2 s silence.
    expect(await dialog.getByRole("switch", { name: "Notifications" }).isChecked()).toBe(true);
    expect(await dialog.getByRole("switch", { name: "Dark mode" }).isChecked()).toBe(false);
    expect(await dialog.getByLabel("Silence duration").inputValue()).toBe("2000");
    const voiceChat = dialog.getByRole("switch", { name: "Voice chat" });
    expect(await voiceChat.isDisabled()).toBe(true);

    await dialog.getByText("likes green tea").waitFor();
    await dialog.getByRole("switch", { name: "Dark mode" }).check();
    await dialog.getByRole("switch", { name: "Mute voice" }).check();
    await dialog.getByLabel("Silence duration").selectOption("5000");
    await dialog.getByRole("button", { name: "Delete memory: likes green tea" }).click();
    await expect.poll(() => dialog.getByText("likes green tea").count()).toBe(0);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Settings saved!", SUCCESS);
    expect(await page.evaluate(() => document.documentElement.classList.contains("theme-dark"))).toBe(true);
    await shot(page, "dark");

    await page.reload();
    await page.getByRole("log", { name: "Messages" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains("theme-dark"))).toBe(true);
    dialog = await open();
    expect(await dialog.getByRole("switch", { name: "Dark mode" }).isChecked()).toBe(true);
    expect(await dialog.getByRole("switch", { name: "Mute voice" }).isChecked()).toBe(true);
    expect(await dialog.getByLabel("Silence duration").inputValue()).toBe("5000");
    await dialog.getByText("Nothing remembered yet.").waitFor();
    const memories = await callApi<{ data: unknown[] }>(
      page,
      "GET",
      `/api/chat/memories?id=${character.characterUUID}`,
    );
    expect(memories.data).toEqual([]);
    // Escape closes the popup; the signed-in pages are dark too.
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await page.goto(`${url}/characters/list`);
    expect(await page.evaluate(() => document.documentElement.classList.contains("theme-dark"))).toBe(true);
    await closePage(page);
  });

  it("shows the microphone disabled with its reason and inserts an emoji found with 2 characters", async () => {
    const { browser, url } = ctx();
    const { page } = await signedInPage(browser, url, PHONE);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await withoutBrowserSpeech(page);
    await openChat(page, url, character.characterUUID);
    const mic = page.getByRole("button", { name: "Microphone" });
    await expect
      .poll(() => mic.getAttribute("title"))
      .toBe(
        "Speech input is not available: this browser has no speech recognition and the server has no transcription endpoint (STT_BASE_URL).",
      );
    expect(await mic.isDisabled()).toBe(true);

    const box = page.getByRole("textbox", { name: "Type a message" });
    await page.getByRole("button", { name: "Emoji" }).click();
    const picker = page.getByRole("dialog", { name: "Emoji picker" });
    const search = picker.getByRole("searchbox", { name: "Search emoji" });
    await search.fill("h");
    await picker.getByText("Type at least 2 characters to search.").waitFor();
    await search.fill("heart");
    const found = picker.getByRole("group", { name: "Search emoji" }).getByRole("button");
    await found.first().waitFor();
    const emoji = (await found.first().textContent()) ?? "";
    expect(emoji.length).toBeGreaterThan(0);
    await shot(page, "emoji");
    await found.first().click();
    await expect.poll(() => box.inputValue()).toBe(emoji);
    // Text shows the send button instead of the microphone; the counter counts.
    await page.getByRole("button", { name: "Send" }).waitFor();
    await page.getByText(`${emoji.length}/150`).waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => picker.count()).toBe(0);
    await closePage(page);
  });
});
