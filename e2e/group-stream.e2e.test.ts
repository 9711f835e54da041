import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../common/api";
import { startScriptedCompletions } from "../server/testing/completions-server";
import { callApi, DESKTOP, ensureCharacters, openChat, PHONE, signedInPage } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * Streamed group replies on the chat screen, against the real server with a scripted model and the embedded
 * eSpeak NG voices:
 * - a group reply streams per speaker (product.md §4 "Group chat"): the first member's words show while
 *   a later member is still silent and the last member's entry does not exist yet; the typing
 *   indicator names the member awaited; each member's bubble comes in turn order;
 * - a split reply (product.md §4 "Split replies") is shown part by part and each part's own audio plays
 *   in turn.
 * No wall-clock timing: the model holds the second member's answer until the test lets it go.
 */

const LONG =
  "Good evening, my dear friend, how lovely it is to see you here again tonight. " +
  "The stars are bright above the old harbour and the sea is calm and silver under the moon. " +
  "Shall we walk along the water and count the boats until the lighthouse wakes up?";

type Played = Array<{ src: string; event: string }>;

/** Records, in the page, every audio element that starts playing or ends (as voice.e2e does). */
async function recordAudio(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: Array<{ src: string; event: string }> = [];
    (window as unknown as { __audio: typeof log }).__audio = log;
    const play = HTMLMediaElement.prototype.play;
    const watched = new WeakSet<HTMLMediaElement>();
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (!watched.has(this)) {
        watched.add(this);
        for (const event of ["playing", "ended"]) {
          this.addEventListener(event, () => log.push({ src: new URL(this.src).pathname, event }));
        }
      }
      return play.call(this);
    };
  });
}

const played = (page: Page) => page.evaluate(() => (window as unknown as { __audio: Played }).__audio);

describe.skipIf(!hasChromium)("streamed group replies and split replies' audio in Chromium", () => {
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>> | undefined;
  /** Names whose answer the model holds, and the release of each. */
  const held = new Map<string, () => void>();
  const holding = new Map<string, Promise<void>>();
  let longReply = false;

  /** The model holds `name`'s next answer until the returned function is called. */
  function hold(name: string): () => void {
    let release: () => void = () => {};
    holding.set(
      name,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    held.set(name, release);
    return () => {
      held.delete(name);
      release();
    };
  }

  beforeAll(async () => {
    llm = await startScriptedCompletions(async (request) => {
      const system = request.messages[0]?.content ?? "";
      const name = [...holding.keys()].find((n) => system.startsWith(`You are ${n}`));
      if (name) {
        const gate = holding.get(name)!;
        holding.delete(name);
        await gate;
      }
      if (longReply && system.startsWith("You are ")) return LONG;
      const me = /^You are (\w+)/.exec(system)?.[1];
      return me ? `${me} here, happy to talk with you all.` : "[]";
    });
  });
  afterAll(async () => {
    for (const release of held.values()) release();
    await llm?.close();
  });

  const suite = useBrowserSuite({
    env: () => ({
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: `${llm?.baseUrl}`,
      LLM_MODEL: "scripted",
      TTS_PROVIDER: "espeak",
    }),
  });

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: each member's reply streams in turn; the first's words show before the last member's entry exists`, async () => {
      const { server, browser, url } = suite;
      const { page, session } = await signedInPage(browser, url, viewport);
      await server.db
        .updateTable("users")
        .set({ character_limit: 10 })
        .where("id", "=", session.user.id)
        .execute();
      const members = await ensureCharacters(page, 3);
      const [a, b, c] = members;
      if (!a || !b || !c) throw new Error("characters missing");
      const group = await callApi<{ page: string }>(
        page,
        "GET",
        `/api/chat/group/new?cId=${a.characterUUID}`,
      );
      const groupId = group.page.split("/").pop()!;
      for (const m of [b, c]) {
        await callApi(page, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${m.characterUUID}`);
      }
      await openChat(page, url, groupId);
      const log = page.getByRole("log", { name: "Messages" });
      const replyOf = (name: string) => log.getByRole("article", { name: `Reply from ${name}` });
      // What the scripted model says for a member (its prompt starts "You are <Name>").
      const wordsOf = (m: { characterName: string }) =>
        `${/^(\w+)/.exec(m.characterName)?.[1] ?? ""} here, happy to talk with you all.`;
      // Counted by their words: the greetings may still be loading into the list meanwhile.
      const answers = async () =>
        Promise.all(
          [a, b, c].map((m) =>
            replyOf(m.characterName)
              .filter({ hasText: wordsOf(m) })
              .count(),
          ),
        );
      const storedEntries = async () =>
        server.db
          .selectFrom("chat_history")
          .select(["character_id"])
          .where(
            "character_id",
            "in",
            [a, b, c].map((m) => m.characterUUID),
          )
          .where("message", "=", "")
          .orderBy("seq")
          .execute();
      const entriesBefore = (await storedEntries()).length;

      // Named in this order, all three answer in turn; the model holds the second's answer.
      const release = hold(b.characterName);
      try {
        const box = page.getByRole("textbox", { name: "Type a message" });
        await box.fill(`${a.characterName}, ${b.characterName} and ${c.characterName}: hello!`);
        await box.press("Enter");

        // The first member's whole answer is on screen while the second is still held...
        await expect
          .poll(async () => (await replyOf(a.characterName).allTextContents()).join(" "), { timeout: 30_000 })
          .toContain(wordsOf(a));
        // ...the typing indicator names the second member, awaited now...
        const typing = page.getByRole("status", { name: "typing" });
        await expect
          .poll(() => typing.getAttribute("title"), { timeout: 20_000 })
          .toBe(`${b.characterName} is typing`);
        // ...and the last member's entry does not exist yet (only the second's new entry does).
        const during = (await storedEntries()).slice(entriesBefore).map((e) => e.character_id);
        expect(during).toEqual([b.characterUUID]);
        expect(await answers()).toEqual([1, 0, 0]);
        await page.screenshot({ path: `test-results/group-stream-${label}.png` });
      } finally {
        release();
      }

      // Then the second and the third answer, each in its own bubble, in turn order.
      await expect.poll(answers, { timeout: 30_000 }).toEqual([1, 1, 1]);
      const order = await log
        .getByRole("article", { name: /^Reply from / })
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("aria-label")));
      expect(order.slice(-3)).toEqual([a, b, c].map((m) => `Reply from ${m.characterName}`));
      await expect.poll(() => log.locator('article[aria-busy="true"]').count(), { timeout: 20_000 }).toBe(0);
      await expect
        .poll(() => page.getByRole("banner").locator(".chat-header__status").textContent())
        .toBe("online");
      const after = (await storedEntries()).slice(entriesBefore).map((e) => e.character_id);
      expect(after).toEqual([b.characterUUID, c.characterUUID]);
      await closePage(page);
    }, 120_000);
  }

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: a split reply shows part by part and each part's own audio plays in turn`, async () => {
      const { browser, url } = suite;
      const { page } = await signedInPage(browser, url, viewport);
      await recordAudio(page);
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      // The server's non-streamed answer (as when no event stream gets through): the reply comes
      // whole, with one audio per part, and the screen reveals the parts 1 s apart.
      let answer: MessageReply | undefined;
      await page.route("**/api/chat/message", async (route) => {
        const body = route.request().postDataBuffer()?.toString("latin1") ?? "";
        const plain = body.replace(/(name="stream"\r\n\r\n)1/, "$10");
        const response = await route.fetch({
          postData: Buffer.from(plain, "latin1"),
          headers: { ...route.request().headers(), accept: "application/json" },
        });
        answer = (await response.json()) as MessageReply;
        await route.fulfill({ response, json: answer });
      });
      await openChat(page, url, character.characterUUID);
      const log = page.getByRole("log", { name: "Messages" });
      const replies = log.getByRole("article", { name: `Reply from ${character.characterName}` });
      await replies.first().waitFor();
      const before = await replies.count();
      longReply = true;
      try {
        const box = page.getByRole("textbox", { name: "Type a message" });
        await box.fill("Tell me about tonight.");
        await box.press("Enter");
        await expect.poll(() => answer?.options?.splitCount ?? 0, { timeout: 30_000 }).toBeGreaterThan(1);
      } finally {
        longReply = false;
      }
      const parts = answer!.options!.splitMessages;
      const urls = answer!.options!.splitAudioUrls ?? [];
      expect(urls).toHaveLength(parts.length);
      // Every part shows, in its own bubble.
      await expect.poll(() => replies.count(), { timeout: 20_000 }).toBe(before + parts.length);
      // While the parts' audio plays or waits, the reply's button offers Stop (one reply, one button).
      const button = (verb: string) =>
        replies.last().getByRole("button", { name: `${verb} ${character.characterName}'s reply` });
      await button("Stop").waitFor({ timeout: 30_000 });
      // Each part's audio plays, in order, each starting after the one before ended; the whole
      // reply's audio is not played on top of them. (Other audio, e.g. a greeting's, is left out.)
      const ours = async () =>
        (await played(page))
          .filter((p) => urls.includes(p.src) || p.src === answer!.audioUrl)
          .map((p) => `${p.event}:${p.src}`);
      await expect
        .poll(ours, { timeout: 60_000 })
        .toEqual(urls.flatMap((u) => [`playing:${u}`, `ended:${u}`]));
      await button("Play").waitFor({ timeout: 20_000 });
      const history = answer!.history?.[0] as ChatHistoryEntry;
      expect(history.chatHistoryReplyAudioUrl).toBe(answer!.audioUrl);
      await closePage(page);
    }, 120_000);
  }
});
