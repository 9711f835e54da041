import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CharacterListItem, Envelope } from "../common/api";
import { type CompletionsRequest, startScriptedCompletions } from "../server/testing/completions-server";
import { DESKTOP, PHONE } from "./chat.helpers";
import { closePage, demoSession, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The prompt inspector in Chromium against the real server and a scripted model: a message
 * fires a lorebook entry; the reply's menu → Prompt shows the prompt's parts, whose tokens add up
 * to the total shown, which is the prompt's token count (the model's counter, a quarter of the
 * characters rounded up, over what the model was sent, with 8 tokens a message), and why the
 * entry fired.
 */

const REPLY = "The amulet is safe with me.";
const WORDS = "Where is the amulet?";
const card = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Ysolde",
    description: "Ysolde is the queen of the floating islands.",
    first_mes: "Welcome to my court.",
    character_book: {
      entries: [
        { name: "Eldoria", keys: [], content: "Eldoria floats.", constant: true },
        { name: "Amulet", keys: ["amulet"], content: "The amulet was stolen." },
      ],
    },
  },
};
const tokens = (text: string) => Math.ceil(text.length / 4);

describe.skipIf(!hasChromium)("prompt inspector in Chromium", () => {
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>> | undefined;
  /** The chat prompts the model was sent (the character's: "You are <name>…"). */
  const chatPrompts: CompletionsRequest[] = [];
  beforeAll(async () => {
    llm = await startScriptedCompletions((request) => {
      // Memory calls (facts, summary) get nothing to remember.
      if (!(request.messages[0]?.content ?? "").startsWith("You are ")) return "[]";
      chatPrompts.push(request);
      return REPLY;
    });
  });
  afterAll(async () => {
    await llm?.close();
  });
  const suite = useBrowserSuite({
    env: () => ({ LLM_PROVIDER: "openai", LLM_BASE_URL: `${llm?.baseUrl}`, LLM_MODEL: "scripted" }),
  });

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: a reply's menu → Prompt shows the parts adding up to the prompt's tokens and the entry fired`, async () => {
      const phone = viewport === PHONE;
      const session = await demoSession(suite.url);
      const form = new FormData();
      form.append("card", new Blob([JSON.stringify(card)], { type: "application/json" }), "card.json");
      const imported = await fetch(`${suite.url}/api/characters/import`, {
        method: "POST",
        headers: { Authorization: `Bearer ${session.token}` },
        body: form,
      });
      const character = ((await imported.json()) as Envelope<CharacterListItem>).data!;
      const page = await suite.openSignedIn(session, `/character-select/${character.characterUUID}`, {
        context: { viewport, isMobile: phone, hasTouch: phone },
      });
      try {
        await page.waitForURL("**/chat");
        const log = page.getByRole("log", { name: "Messages" });
        await log.waitFor();
        await page.getByRole("textbox", { name: "Type a message" }).fill(WORDS);
        await page.getByRole("button", { name: "Send" }).click();
        const reply = log.getByRole("article", { name: "Reply from Ysolde" }).filter({ hasText: REPLY });
        await reply.waitFor({ timeout: 20_000 });
        await expect
          .poll(() => page.locator('article[aria-busy="true"]').count(), { timeout: 20_000 })
          .toBe(0);

        await reply.getByRole("button", { name: "Message actions" }).click();
        await page.getByRole("menuitem", { name: "Prompt" }).click();
        const dialog = page.getByRole("dialog", { name: "What this reply's prompt was made of" });
        const total = dialog.locator("[data-total]");
        await total.waitFor();
        const shown = Number(await total.textContent());
        const parts = (await dialog.locator("tbody .prompt-inspector__tokens").allTextContents()).map(Number);
        expect(parts.length).toBeGreaterThanOrEqual(5);
        expect(parts.reduce((n, p) => n + p, 0)).toBe(shown);

        // What the model was sent: the system prompt, the greeting, the words with the turn's note.
        const [system, greeting, user] = chatPrompts.at(-1)!.messages;
        expect(user!.content.startsWith(`${WORDS}\n\n[`)).toBe(true);
        const note = user!.content.slice(WORDS.length + 2);
        const expected =
          tokens(system!.content) + 8 + tokens(greeting!.content) + 8 + tokens(WORDS) + 8 + tokens(note) + 1;
        expect(shown).toBe(expected);

        const text = await dialog.textContent();
        expect(text).toContain("Eldoria: always in (constant)");
        expect(text).toContain("Amulet: key “amulet” in the newest message");
        await dialog.getByRole("button", { name: "Close" }).click();
        await dialog.waitFor({ state: "detached" });
      } finally {
        await closePage(page);
      }
    });
  }
});
