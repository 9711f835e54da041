import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedCompletions } from "../server/testing/completions-server";
import { callApi, DESKTOP, openChat, PHONE, signedInPage } from "./chat.helpers";
import {
  closePage,
  expectToast,
  hasChromium,
  SIGNED_IN_WARNING,
  SUCCESS,
  toastWith,
} from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The character form's Generation section in Chromium against the real server and a scripted
 * model that records every request (product.md §2 "Character form", Generation): a value out of
 * bounds is refused in the browser with its sentence; the saved reply length, temperature and
 * author's note come back in the form and reach the model with the character's next reply.
 */
describe.skipIf(!hasChromium)("per-character generation settings in Chromium", () => {
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>> | undefined;
  beforeAll(async () => {
    llm = await startScriptedCompletions((request) => {
      const me = /^You are (\w+)/.exec(request.messages[0]?.content ?? "")?.[1];
      return me ? `${me} answers in rhyme, all the time.` : "[]";
    });
  });
  afterAll(async () => {
    await llm?.close();
  });
  const suite = useBrowserSuite({
    env: () => ({ LLM_PROVIDER: "openai", LLM_BASE_URL: `${llm?.baseUrl}`, LLM_MODEL: "scripted" }),
  });

  /**
   * Checks a toast: its rule in full on the desktop (expectToast); on a phone, where toasts span
   * the width, only that it shows.
   */
  const toastCheck =
    (phone: boolean) =>
    (page: Page, text: string, rule: typeof SUCCESS): Promise<unknown> =>
      phone
        ? toastWith(page, text).first().waitFor({ state: "visible", timeout: 15_000 })
        : expectToast(page, text, rule);
  const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
  const rowOf = (page: Page, name: string) => page.locator(".tab-panel tbody tr").filter({ hasText: name });

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: saves the Generation section, shows it back, and the model gets the temperature, reply length and note`, async () => {
      const { browser, url } = suite;
      const { page } = await signedInPage(browser, url, viewport);
      const toast = toastCheck(viewport === PHONE);
      const presets = await callApi<{ data: Array<{ characterPreDefinedUUID: string }> }>(
        page,
        "GET",
        "/api/characters/selection",
      );
      const created = await callApi<{ data: { characterUUID: string; characterName: string } }>(
        page,
        "POST",
        "/api/characters/create-preselect",
        { id: presets.data[0]!.characterPreDefinedUUID },
      );
      const { characterUUID: id, characterName: name } = created.data;

      await page.goto(`${url}/characters/list`);
      await rowOf(page, name)
        .getByRole("link", { name: `Edit ${name}` })
        .click();
      await page.getByRole("heading", { name: "Edit Character" }).waitFor();
      await expect.poll(() => field(page, "Name").inputValue()).toBe(name);
      // Closed while nothing is set; opened, its four fields.
      const section = page.locator("details.generation");
      expect(await section.getAttribute("open")).toBeNull();
      await section.locator("summary").click();
      await field(page, "Reply length (tokens)").fill("5000");
      await page.getByRole("button", { name: "Save" }).click();
      await toast(page, "The reply length must be a whole number from 16 to 4096 tokens.", SIGNED_IN_WARNING);
      await field(page, "Reply length (tokens)").fill("150");
      await field(page, "Temperature").fill("0.4");
      await field(page, "Author's note").fill("Answer in rhyme.");
      await field(page, "Author's note depth").fill("1");
      await page.getByRole("button", { name: "Save" }).click();
      await toast(page, `${name} has been updated.`, SUCCESS);
      await page.waitForURL("**/characters/list");

      // Shown back, the section open since something is set.
      await rowOf(page, name)
        .getByRole("link", { name: `Edit ${name}` })
        .click();
      await expect.poll(() => field(page, "Reply length (tokens)").inputValue()).toBe("150");
      expect(await section.getAttribute("open")).not.toBeNull();
      expect(await field(page, "Temperature").inputValue()).toBe("0.4");
      expect(await field(page, "Author's note").inputValue()).toBe("Answer in rhyme.");
      expect(await field(page, "Author's note depth").inputValue()).toBe("1");
      await section.screenshot({ path: "test-results/character-generation.png" });

      // The character's next reply is asked with them.
      llm!.requests.length = 0;
      await openChat(page, url, id);
      const box = page.getByRole("textbox", { name: "Type a message" });
      await box.fill("Tell me about your day.");
      await box.press("Enter");
      const log = page.getByRole("log", { name: "Messages" });
      await log.getByText("answers in rhyme, all the time.").first().waitFor({ timeout: 30_000 });
      const reply = llm!.requests.find((r) => r.messages[0]?.content.startsWith("You are"));
      expect(reply).toMatchObject({ temperature: 0.4, max_tokens: 150 });
      expect(reply!.messages.map((m) => m.content).join("\n")).toContain("[Author's note: Answer in rhyme.]");
      await closePage(page);
    }, 120_000);
  }
});
