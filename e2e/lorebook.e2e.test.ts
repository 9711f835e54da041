import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CharacterBook, CharacterListItem, Envelope } from "../common/api";
import { closePage, demoSession, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The character form's lorebook editor in Chromium against the real server, on a
 * phone and on a desktop: add an entry, save, reopen the form and see it; the server stored it.
 */

if (!hasChromium) console.warn("lorebook e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };
const TIMEOUT = 90_000;

describe.skipIf(!hasChromium)("lorebook editor in Chromium", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  const createRandom = async (token: string): Promise<CharacterListItem> => {
    const answer = await fetch(`${suite.url}/api/characters/create-random`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
    });
    const envelope = (await answer.json()) as Envelope<CharacterListItem>;
    if (envelope.success !== 1 || envelope.data === undefined) throw new Error(envelope.message);
    return envelope.data;
  };
  const storedBook = async (token: string, id: string): Promise<CharacterBook | null> => {
    const answer = await fetch(`${suite.url}/api/characters/?id=${id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const envelope = (await answer.json()) as Envelope<{ characterLorebook: CharacterBook | null }>;
    return envelope.data?.characterLorebook ?? null;
  };
  const openEdit = async (page: Page, name: string) => {
    await page
      .locator(".tab-panel tbody tr")
      .filter({ hasText: name })
      .getByRole("link", { name: `Edit ${name}` })
      .click();
    await page.getByRole("heading", { name: "Edit Character" }).waitFor();
    await expect
      .poll(() => page.getByLabel("Name", { exact: true }).inputValue(), { timeout: 20_000 })
      .toBe(name);
  };
  const entry = (page: Page, n: number): Locator => page.getByRole("group", { name: `Entry ${n}` });

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(
      `${label}: adds an entry, saves, reopens the form and sees it`,
      async () => {
        const session = await demoSession(suite.url);
        const character = await createRandom(session.token);
        const page = await suite.openSignedIn(session, "/characters/list", { context: { viewport } });
        try {
          await openEdit(page, character.characterName);
          expect(await entry(page, 1).count()).toBe(0);

          await page.getByRole("button", { name: "Add lorebook entry" }).click();
          const first = entry(page, 1);
          await first.waitFor();
          await first.getByLabel("Keys", { exact: true }).fill("lighthouse, harbour");
          await first.getByLabel("Secondary keys", { exact: true }).fill("storm");
          await first
            .getByLabel("Content", { exact: true })
            .fill("The lighthouse keeper is the character's uncle.");
          await first.getByLabel("Selective", { exact: true }).check();
          await first.getByLabel("Position", { exact: true }).selectOption({ label: "Before the character" });
          // The editor fits the screen: no sideways scrolling on a phone.
          const box = await first.boundingBox();
          expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);

          await page.getByRole("button", { name: "Save" }).click();
          await page.waitForURL("**/characters/list", { timeout: 20_000 });

          await openEdit(page, character.characterName);
          const reopened = entry(page, 1);
          await reopened.waitFor();
          expect(await reopened.getByLabel("Keys", { exact: true }).inputValue()).toBe("lighthouse, harbour");
          expect(await reopened.getByLabel("Secondary keys", { exact: true }).inputValue()).toBe("storm");
          expect(await reopened.getByLabel("Content", { exact: true }).inputValue()).toBe(
            "The lighthouse keeper is the character's uncle.",
          );
          expect(await reopened.getByLabel("Selective", { exact: true }).isChecked()).toBe(true);
          expect(await reopened.getByLabel("Constant", { exact: true }).isChecked()).toBe(false);
          expect(await reopened.getByLabel("Enabled", { exact: true }).isChecked()).toBe(true);
          expect(await reopened.getByLabel("Position", { exact: true }).inputValue()).toBe("before_char");

          const book = await storedBook(session.token, character.characterUUID);
          expect(book?.entries).toEqual([
            expect.objectContaining({
              keys: ["lighthouse", "harbour"],
              secondary_keys: ["storm"],
              selective: true,
              constant: false,
              enabled: true,
              position: "before_char",
            }),
          ]);
        } finally {
          await closePage(page);
        }
      },
      TIMEOUT,
    );
  }
});
