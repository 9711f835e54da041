import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CharacterListItem, LoginData, SessionUser } from "../common/api";
import { PRODUCT_NAME } from "../common/constants";
import { closePage, hasChromium, openPage, storeSession } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * "UI translations" in Chromium against the real server, on a phone and a desktop:
 * (a) a browser in Spanish, French, German, Italian or Portuguese walks the main screens (home,
 * pricing, login, the characters list, a chat, the profile) and sees no English: no visible text
 * is an English catalogue text that its language translates differently, and each screen shows
 * one known text of its language; (b) the language chosen in the menu is kept with the account:
 * a new session in an English browser opens in it.
 */

if (!hasChromium) console.warn("i18n e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 240_000;
/** How long a screen may take to show its known text. */
const SHOWN_MS = 10_000;
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };
const LANGUAGES = ["es", "fr", "de", "it", "pt"] as const;
/** The browser locale of each language (navigator.languages[0]). */
const LOCALES: Record<string, string> = {
  en: "en-US",
  es: "es-ES",
  fr: "fr-FR",
  de: "de-DE",
  it: "it-IT",
  pt: "pt-BR",
};
/** The catalogues of the screens walked here. */
const NAMESPACES = ["common", "chat", "public", "auth", "characters", "profile"];
/** Names of other services shown as they are in every language (the social links). */
const BRANDS = ["Facebook", "Instagram", "YouTube", "TikTok"];
const LOCALES_DIR = path.resolve(import.meta.dirname, "../web/locales");

type Flat = Map<string, string>;

function flatten(value: unknown, prefix = "", out: Flat = new Map()): Flat {
  if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else if (typeof value === "string") {
    out.set(prefix, value);
  }
  return out;
}

/** `ns:key` → text of one language's catalogues (a namespace not written yet reads as empty). */
function catalogue(lng: string): Flat {
  const all: Flat = new Map();
  for (const ns of NAMESPACES) {
    const file = path.join(LOCALES_DIR, lng, `${ns}.json`);
    const texts = existsSync(file)
      ? flatten(JSON.parse(readFileSync(file, "utf8")))
      : new Map<string, string>();
    for (const [key, text] of texts) all.set(`${ns}:${key}`, text);
  }
  return all;
}

/** The text of `ns:key` in `lng`. @throws Error when the catalogue lacks it. */
function text(lng: string, key: string): string {
  const value = catalogue(lng).get(key);
  if (value === undefined) throw new Error(`${lng} catalogue has no ${key}`);
  return value;
}

/**
 * The English texts that must not appear in `lng`: English catalogue texts (without variables)
 * that `lng` translates differently and that are no text of `lng` anywhere ("Chat", "Emoji" and
 * the like are the same words in several languages).
 */
function englishLeftovers(lng: string): Map<string, string> {
  const english = catalogue("en");
  const own = catalogue(lng);
  const ownTexts = new Set([...own.values()].map((value) => value.trim()));
  const leftovers = new Map<string, string>();
  for (const [key, value] of english) {
    const trimmed = value.trim();
    if (trimmed.length < 2 || trimmed.includes("{{")) continue;
    const translated = own.get(key);
    if (translated === undefined || translated.trim() === trimmed || ownTexts.has(trimmed)) continue;
    leftovers.set(trimmed, key);
  }
  return leftovers;
}

/** Every visible text node of the page (trimmed) and the placeholders of visible fields. */
function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen: string[] = [];
    const visible = (element: Element) =>
      element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
      element.closest("[inert]") === null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const value = node.textContent?.trim() ?? "";
      const parent = node.parentElement;
      if (value !== "" && parent !== null && visible(parent)) seen.push(value);
    }
    for (const element of document.querySelectorAll("[placeholder]")) {
      const value = element.getAttribute("placeholder")?.trim() ?? "";
      if (value !== "" && visible(element)) seen.push(value);
    }
    return seen;
  });
}

describe.skipIf(!hasChromium)("the app in the user's language", () => {
  const suite = useBrowserSuite();

  /** A member who has confirmed being 18 or older, with one random character. */
  async function memberWithCharacter(email: string): Promise<Member> {
    const session = await suite.member(email, "language pass 1", async (userId) => {
      await suite.server.db
        .updateTable("users")
        .set({ adult_confirmed_at: Date.now() })
        .where("id", "=", userId)
        .execute();
    });
    const created = await fetch(`${suite.url}/api/characters/create-random`, {
      method: "POST",
      headers: { Authorization: `Bearer ${session.token}` },
    });
    const body = (await created.json()) as {
      success: number;
      message: string;
      data?: { characterUUID?: string };
    };
    if (body.success !== 1) throw new Error(`create-random failed: ${body.message}`);
    const list = await fetch(`${suite.url}/api/characters/list/chat`, {
      headers: { Authorization: `Bearer ${session.token}` },
    });
    const characters = (
      (await list.json()) as {
        characters: CharacterListItem[];
      }
    ).characters;
    const characterId = characters[0]?.characterUUID;
    if (characterId === undefined) throw new Error("the member has no character");
    const { name, userName, userEmail } = session.user;
    // Plan names are names (the plans' descriptions are not: they are checked).
    const plans = await suite.server.db.selectFrom("plans").select("name").execute();
    const data = new Set([
      name,
      userName,
      userEmail,
      PRODUCT_NAME,
      ...BRANDS,
      ...plans.map((plan) => plan.name),
      ...characters.flatMap((c) => [c.characterName, c.characterDescription, c.characterGreeting]),
    ]);
    return { session, characterId, data };
  }

  /** What a member's own data puts on the screens (never a UI text). */
  interface Member {
    session: LoginData;
    characterId: string;
    data: Set<string>;
  }

  /** Whether `value` is one of the member's data, or the start of one cut with an ellipsis. */
  function isData(data: Set<string>, value: string): boolean {
    if (data.has(value)) return true;
    const cut = /^(.*?)(\.\.\.|…)$/su.exec(value)?.[1];
    return cut !== undefined && cut.length > 0 && [...data].some((item) => item.startsWith(cut));
  }

  /**
   * Walks the main screens in `page` (signed out: home, pricing, login; then signed in as
   * `member`: the characters list, the chat, the profile) and returns the visible texts of each.
   * Each screen's one known text of `lng` is waited for first; a miss is reported.
   */
  async function walk(
    page: Page,
    lng: string,
    member: Member,
    report: (screen: string, ...problems: string[]) => void,
  ): Promise<Map<string, string[]>> {
    const seen = new Map<string, string[]>();
    const screen = async (name: string, known: () => Promise<unknown>) => {
      try {
        await known();
      } catch (error) {
        report(name, `known text missing: ${String(error).split("\n")[0]}`);
      }
      // Let late parts (lists, the greeting) arrive before reading the screen.
      await page.waitForTimeout(400);
      seen.set(name, [...new Set(await visibleTexts(page))]);
    };
    const wait = { timeout: SHOWN_MS };
    await page.goto(`${suite.url}/`);
    await screen("home", () =>
      page.getByText(text(lng, "public:home.tryFree"), { exact: true }).first().waitFor(wait),
    );
    await page.goto(`${suite.url}/pricing`);
    await screen("pricing", () =>
      page
        .getByRole("heading", { name: text(lng, "public:pricing.title") })
        .first()
        .waitFor(wait),
    );
    await page.goto(`${suite.url}/login`);
    await screen("login", () =>
      page.getByRole("button", { name: text(lng, "auth:signIn.submit"), exact: true }).waitFor(wait),
    );
    await storeSession(page, member.session);
    await page.goto(`${suite.url}/characters/list`);
    await screen("characters list", () =>
      page.getByRole("heading", { name: text(lng, "characters:list.title") }).waitFor(wait),
    );
    await page.goto(`${suite.url}/character-select/${member.characterId}`);
    await page.waitForURL("**/chat");
    await screen("chat", async () => {
      await page.getByRole("log", { name: text(lng, "chat:main.messages") }).waitFor(wait);
      await page.getByPlaceholder(text(lng, "chat:main.typeMessage")).waitFor(wait);
    });
    await page.goto(`${suite.url}/user/profile`);
    await screen("profile", () =>
      page.getByRole("heading", { name: text(lng, "profile:page.title") }).waitFor(wait),
    );
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(lng);
    return seen;
  }

  for (const [device, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(
      `${device}: in es, fr, de, it and pt the main screens show no English and one known text each`,
      async () => {
        const found: Record<string, string[]> = {};
        const reporter =
          (lng: string) =>
          (screen: string, ...problems: string[]) => {
            const key = `${lng} ${screen}`;
            found[key] = [...(found[key] ?? []), ...problems];
          };
        // One member for every language. Its screens in an English browser first: what English
        // looks like there (walking the screens changes nothing the other walks would see).
        const member = await memberWithCharacter(`lang-${device}@example.com`);
        const englishPage = await openPage(suite.browser, { viewport, locale: LOCALES.en });
        const english = await walk(englishPage, "en", member, (screen, ...problems) =>
          reporter("en")(`(English) ${screen}`, ...problems),
        );
        await closePage(englishPage);
        for (const lng of LANGUAGES) {
          const report = reporter(lng);
          const page = await openPage(suite.browser, { viewport, locale: LOCALES[lng] });
          const shown = await walk(page, lng, member, report);
          await closePage(page);

          const leftovers = englishLeftovers(lng);
          const ownTexts = new Set([...catalogue(lng).values()].map((value) => value.trim()));
          for (const [screen, texts] of shown) {
            const englishHere = new Set(english.get(screen) ?? []);
            for (const value of texts) {
              // An English catalogue text this language translates otherwise.
              if (leftovers.has(value)) report(screen, `"${value}" (${leftovers.get(value)})`);
              // A text shown the same in English and here that is no catalogue text of this
              // language (written in a component, or a server text) and no data of the member.
              else if (
                englishHere.has(value) &&
                /\p{L}{2}/u.test(value) &&
                !ownTexts.has(value) &&
                !isData(member.data, value)
              )
                report(screen, `"${value}" (same as in English, not in the ${lng} catalogues)`);
            }
          }
        }
        expect(found, "English left on the screens of a non-English browser").toEqual({});
      },
      TIMEOUT,
    );
  }

  it(
    "the language chosen in the menu is kept with the account: after signing out, an English browser signs in to German",
    async () => {
      const email = "switch@example.com";
      const password = "language pass 1";
      const session = await suite.member(email, password);
      const page = await suite.openSignedIn(session, "/characters/list", {
        context: { viewport: DESKTOP, locale: LOCALES.en },
      });
      await page.getByRole("heading", { name: text("en", "characters:list.title") }).waitFor();
      await page.getByRole("button", { name: text("en", "common:menu.open") }).click();
      const saved = page.waitForResponse((response) => response.url().endsWith("/api/users/ui-language"));
      await page.getByLabel(text("en", "common:language.label"), { exact: true }).selectOption("de");
      expect((await (await saved).json()) as { success: number }).toMatchObject({ success: 1 });
      await page.getByRole("heading", { name: text("de", "characters:list.title") }).waitFor();
      await expect
        .poll(() =>
          page.evaluate(() => (JSON.parse(localStorage.getItem("user") ?? "{}") as SessionUser).uiLanguage),
        )
        .toBe("de");

      // Sign out from the (now German) menu.
      await page.getByRole("link", { name: text("de", "common:menu.logout"), exact: true }).click();
      await expect.poll(() => page.evaluate(() => localStorage.getItem("user"))).toBeNull();
      await closePage(page);

      // A new session in an English browser: English until signed in, then German.
      const next = await openPage(suite.browser, { viewport: DESKTOP, locale: LOCALES.en });
      await next.goto(`${suite.url}/login`);
      await next.getByLabel(text("en", "auth:signIn.email"), { exact: true }).fill(email);
      await next.getByLabel(text("en", "auth:signIn.password"), { exact: true }).fill(password);
      await next.getByRole("button", { name: text("en", "auth:signIn.submit"), exact: true }).click();
      // Signed in (a member without characters lands on the preset selection): German at once.
      await next.waitForURL((address) => address.pathname !== "/login", { timeout: 20_000 });
      await expect.poll(() => next.evaluate(() => document.documentElement.lang)).toBe("de");
      await next.goto(`${suite.url}/characters/list`);
      await next.getByRole("heading", { name: text("de", "characters:list.title") }).waitFor();
      await next.getByRole("button", { name: text("de", "common:menu.open") }).click();
      expect(await next.getByLabel(text("de", "common:language.label"), { exact: true }).inputValue()).toBe(
        "de",
      );
      // And after a reload.
      await next.reload();
      await next.getByRole("heading", { name: text("de", "characters:list.title") }).waitFor();
      await closePage(next);
    },
    TIMEOUT,
  );
});
