import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../common/api";
import { DESKTOP, ensureCharacters, openChat, PHONE } from "./chat.helpers";
import { closePage, demoSession, hasChromium, json, openPage, storeSession } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * product.md §2 "Message list": a reply's audio is a native audio control on Apple devices and a
 * play/stop icon elsewhere (web/pages/chat/components/ReplyAudio.tsx, web/lib/device.ts).
 */

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
const AUDIO_URL = "/content/voice/spoken-reply.mp3";

describe.skipIf(!hasChromium)("a reply's audio control in Chromium", () => {
  const suite = useBrowserSuite();

  /** Opens the chat of a fresh demo user whose history holds one spoken reply. */
  async function chatWithSpokenReply(options: { viewport: typeof DESKTOP; userAgent?: string }): Promise<{
    page: Page;
    name: string;
  }> {
    const { url } = suite;
    const session = await demoSession(url);
    const page = await openPage(suite.browser, options);
    await page.goto(`${url}/maintenance`);
    await storeSession(page, session);
    const [character] = await ensureCharacters(page, 1);
    if (!character) throw new Error("no character");
    const entry: ChatHistoryEntry = {
      chatHistoryUUID: "00000000-0000-4000-8000-000000000001",
      characterUUID: character.characterUUID,
      chatHistoryMessage: "Say something",
      chatHistoryMessageImage: "",
      chatHistorySendTime: new Date().toISOString(),
      chatHistoryReplyMessage: "Something, spoken.",
      chatHistoryReplyImage: "",
      chatHistoryReplyAudioUrl: AUDIO_URL,
      chatHistoryReplyTime: new Date().toISOString(),
      chatHistoryImageLoading: 0,
    };
    await page.route(
      (address) => address.pathname === "/api/chat/history/paginated",
      (route) => json(route, 200, { success: 1, message: "ok", data: [entry] }),
    );
    await openChat(page, url, character.characterUUID);
    await page.getByText("Something, spoken.").waitFor();
    return { page, name: character.characterName };
  }

  for (const [label, viewport, userAgent] of [
    ["iPhone", PHONE, IPHONE],
    ["Mac", DESKTOP, MAC],
  ] as const) {
    it(`${label}: the native audio control with the reply's audio, no play icon`, async () => {
      const { page, name } = await chatWithSpokenReply({ viewport, userAgent });
      const reply = page.getByRole("article", { name: `Reply from ${name}` }).last();
      const control = reply.locator("audio.bubble__audio");
      await control.waitFor({ state: "attached" });
      expect(await control.getAttribute("controls")).not.toBeNull();
      expect(await control.getAttribute("src")).toBe(AUDIO_URL);
      expect(await control.getAttribute("aria-label")).toBe(`${name}'s reply, spoken`);
      expect(await reply.getByRole("button", { name: `Play ${name}'s reply` }).count()).toBe(0);
      await closePage(page);
    }, 60_000);
  }

  it("elsewhere: the play icon, no native control", async () => {
    const { page, name } = await chatWithSpokenReply({ viewport: DESKTOP });
    const reply = page.getByRole("article", { name: `Reply from ${name}` }).last();
    await reply.getByRole("button", { name: `Play ${name}'s reply` }).waitFor();
    expect(await reply.locator("audio").count()).toBe(0);
    await closePage(page);
  }, 60_000);
});
