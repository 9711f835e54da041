import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedCompletions } from "../server/testing/completions-server";
import { callApi, ensureCharacters, openChat } from "./chat.helpers";
import { closePage, demoSession, hasChromium, openPage, storeSession } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The chat screen on a phone, in Chromium against the real server with a scripted model:
 * a regenerated reply's meta line (time, ‹ 2/2 ›, Regenerate, "…") stays one line at 360 and 390
 * px, and the inline editor's error on the user's pink bubble is readable (WCAG AA, 4.5:1).
 */

describe.skipIf(!hasChromium)("chat screen fixes in Chromium", () => {
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>> | undefined;
  let counter = 0;
  beforeAll(async () => {
    llm = await startScriptedCompletions((request) => {
      // Memory calls (facts, summary) get nothing to remember.
      if (!(request.messages[0]?.content ?? "").startsWith("You are ")) return "[]";
      counter += 1;
      return `Reply number ${counter}, gladly.`;
    });
  });
  afterAll(async () => {
    await llm?.close();
  });

  const suite = useBrowserSuite({
    env: () => ({ LLM_PROVIDER: "openai", LLM_BASE_URL: `${llm?.baseUrl}`, LLM_MODEL: "scripted" }),
  });

  /** A fresh demo user's chat on a phone of `width` px, after one message and one regeneration. */
  async function regeneratedChat(width: number): Promise<{ page: Page; log: Locator }> {
    const session = await demoSession(suite.url);
    const page = await openPage(suite.browser, { viewport: { width, height: 780 }, hasTouch: true });
    await page.goto(`${suite.url}/maintenance`);
    await storeSession(page, session);
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    const sent = await callApi<{ history: Array<{ chatHistoryUUID: string }> }>(
      page,
      "POST",
      "/api/chat/message",
      {
        id: character.characterUUID,
        message: "Tell me about your day",
      },
    );
    const id = sent.history[0]?.chatHistoryUUID ?? "";
    const again = await callApi(page, "POST", "/api/chat/regenerate", { id, mute: "1" });
    expect(again.success, String(again.message)).toBe(1);
    await openChat(page, suite.url, character.characterUUID);
    const log = page.getByRole("log", { name: "Messages" });
    return { page, log };
  }

  for (const width of [360, 390]) {
    it(`keeps a reply's time, arrows, Regenerate and "…" on one line at ${width} px`, async () => {
      const { page, log } = await regeneratedChat(width);
      const reply = log.getByRole("article", { name: /^Reply from / }).last();
      const parts = {
        previous: reply.getByRole("button", { name: "Previous reply" }),
        next: reply.getByRole("button", { name: "Next reply" }),
        regenerate: reply.getByRole("button", { name: "Regenerate reply" }),
        menu: reply.getByRole("button", { name: "Message actions" }),
        time: reply.locator(".bubble__meta time"),
      };
      await parts.menu.waitFor();
      const middles: Record<string, number> = {};
      for (const [name, part] of Object.entries(parts)) {
        const box = await part.boundingBox();
        if (box === null) throw new Error(`${name} is not shown`);
        middles[name] = box.y + box.height / 2;
        expect(box.x + box.width, `${name} inside the screen`).toBeLessThanOrEqual(width);
      }
      for (const name of Object.keys(parts)) {
        expect(
          Math.abs((middles[name] ?? 0) - (middles.previous ?? 0)),
          `${name} on the arrows' line`,
        ).toBeLessThan(4);
      }
      await closePage(page);
    });
  }

  it("shows an inline edit's error readably on the user's bubble", async () => {
    const { page, log } = await regeneratedChat(375);
    const mine = log.getByRole("article", { name: "Your message" }).last();
    await mine.getByRole("button", { name: "Message actions" }).click();
    await mine.getByRole("menuitem", { name: "Edit" }).click();
    await mine.getByRole("textbox", { name: "Edit your message" }).fill("   ");
    await mine.getByRole("button", { name: "Save" }).click();
    const problem = mine.getByRole("alert").filter({ hasText: "The message is empty." });
    await problem.waitFor();
    const contrast = await problem.evaluate((element) => {
      /** [r, g, b, a] of a computed colour "rgb(…)" or "rgba(…)" (0-255, alpha 0-1). */
      const parse = (colour: string) => {
        const [r = 0, g = 0, b = 0, a = 1] = (colour.match(/[\d.]+/g) ?? []).map(Number);
        return [r, g, b, a] as const;
      };
      const luminance = ([r, g, b]: readonly number[]) => {
        const [lr = 0, lg = 0, lb = 0] = [r, g, b].map((c) => {
          const s = (c ?? 0) / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
      };
      const ratio = (a: readonly number[], b: readonly number[]) => {
        const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
        return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
      };
      const text = parse(getComputedStyle(element).color);
      // The backgrounds behind the text: the first element up the tree that paints one (every
      // colour of a gradient counts, the worst one decides).
      for (let node: Element | null = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        const grounds: string[] = [...(style.backgroundImage.match(/rgba?\([^)]*\)/g) ?? [])];
        const colour = parse(style.backgroundColor);
        if (colour[3] > 0.5) grounds.push(style.backgroundColor);
        if (grounds.length > 0) return Math.min(...grounds.map((ground) => ratio(text, parse(ground))));
      }
      return 0;
    });
    expect(contrast).toBeGreaterThanOrEqual(4.5);
    await closePage(page);
  });

  it("speaks German on the profile: the Free plan's name and the photo chooser, reached by its label", async () => {
    const session = await suite.member("kostenlos@example.com", "profile pass 1", async (userId) => {
      await suite.server.db
        .updateTable("users")
        .set({ ui_language: "de" })
        .where("id", "=", userId)
        .execute();
    });
    const page = await suite.openSignedIn(session, "/user/profile");
    await page.getByRole("heading", { name: "Tarif und Nachrichten" }).waitFor();
    const plan = page.locator(".plan-panel strong").first();
    expect(await plan.textContent()).toBe("Kostenlos");
    expect(await page.getByLabel("Tarif", { exact: true }).inputValue()).toBe("Kostenlos");

    // The browser's own "Choose File / No file chosen" is out of sight; the app's words show.
    const chooser = page.locator(".photo-field .file-input");
    await expect.poll(() => chooser.textContent()).toMatch(/Datei auswählen\s*Keine Datei ausgewählt/);
    const native = page.getByLabel("Foto", { exact: true });
    expect(await native.evaluate((input) => input.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
    await native.focus();
    expect(await native.evaluate((input) => input === document.activeElement)).toBe(true);
    await native.setInputFiles({ name: "zoe.png", mimeType: "image/png", buffer: PNG });
    await expect.poll(() => chooser.locator(".file-input__name").textContent()).toBe("zoe.png");
    await closePage(page);
  });
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
