import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderMessage } from "../common/i18n/message";
import { VALIDATION_SENTENCES } from "../common/i18n/validationSentences";
import { checkText, FILL_REQUIRED_FIELDS, firstProblem, RULES } from "../common/validation";
import i18n, {
  currentLanguage,
  formatDate,
  formatPrice,
  hasValidationCatalogue,
  loadNamespaces,
  pickLanguage,
  setLanguage,
} from "./i18n";
import { localValidation } from "./lib/validationText";

/**
 * "a check that no key is missing in any language". Every catalogue
 * `web/locales/<lng>/<ns>.json` is compared with the English one: the same namespaces, the same
 * keys (plural forms may follow the language's own plural categories), no empty value, the same
 * `{{variables}}` in each text.
 */

const LOCALES = join(import.meta.dirname, "locales");
const LANGUAGES = ["en", "es", "fr", "de", "it", "pt"];
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

type Catalogue = Record<string, unknown>;

function read(lng: string, ns: string): Catalogue {
  return JSON.parse(readFileSync(join(LOCALES, lng, `${ns}.json`), "utf8")) as Catalogue;
}

function namespaces(lng: string): string[] {
  return readdirSync(join(LOCALES, lng))
    .filter((file) => file.endsWith(".json"))
    .map((file) => file.slice(0, -".json".length))
    .sort();
}

/** `{"a.b": "text"}` for every leaf; non-string leaves are reported by value type. */
function flatten(value: unknown, prefix = "", out = new Map<string, unknown>()): Map<string, unknown> {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

function variables(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((match) => match[1] ?? "").sort();
}

/** The key with its plural suffix removed, when it has one. */
function pluralBase(key: string): string | null {
  return PLURAL_SUFFIX.test(key) ? key.replace(PLURAL_SUFFIX, "") : null;
}

describe("loading the catalogues", () => {
  it("starts with English's public catalogues only; a switch loads the language first, the signed-in namespaces load on demand", async () => {
    expect(i18n.hasResourceBundle("en", "common")).toBe(true);
    expect(i18n.hasResourceBundle("en", "public")).toBe(true);
    expect(i18n.hasResourceBundle("en", "chat")).toBe(false);
    // The FAQ's and terms' long texts load with their pages.
    expect(i18n.hasResourceBundle("en", "faq")).toBe(false);
    expect(i18n.hasResourceBundle("en", "terms")).toBe(false);
    expect(i18n.hasResourceBundle("es", "common")).toBe(false);
    await setLanguage("es");
    expect(currentLanguage()).toBe("es");
    expect(i18n.hasResourceBundle("es", "public")).toBe(true);
    expect(i18n.t("common:language.label")).toBe((read("es", "common").language as { label: string }).label);
    expect(i18n.hasResourceBundle("es", "chat")).toBe(false);
    await loadNamespaces(["chat", "faq"]);
    expect(i18n.hasResourceBundle("es", "chat")).toBe(true);
    expect(i18n.hasResourceBundle("en", "chat")).toBe(true);
    expect(i18n.hasResourceBundle("es", "faq")).toBe(true);
    expect(i18n.hasResourceBundle("fr", "common")).toBe(false);
    await setLanguage("en");
  });
});

describe("translation catalogues", () => {
  it("has the six languages, each with the namespaces of English", () => {
    expect(readdirSync(LOCALES).sort()).toEqual([...LANGUAGES].sort());
    for (const lng of LANGUAGES) expect(namespaces(lng), lng).toEqual(namespaces("en"));
  });

  for (const ns of namespaces("en")) {
    const english = flatten(read("en", ns));
    const englishPlurals = new Set([...english.keys()].map(pluralBase).filter((base) => base !== null));

    it(`${ns}: English texts are non-empty strings`, () => {
      for (const [key, value] of english) {
        expect(typeof value === "string" && value.trim() !== "", `en:${ns}:${key}`).toBe(true);
      }
    });

    for (const lng of LANGUAGES.filter((code) => code !== "en")) {
      it(`${ns}: ${lng} has every key of English, no other, none empty, the same variables`, () => {
        const own = flatten(read(lng, ns));
        const categories = new Intl.PluralRules(lng).resolvedOptions().pluralCategories as string[];
        const missing: string[] = [];
        for (const key of english.keys()) {
          const base = pluralBase(key);
          // A plural form English needs but this language does not have (e.g. no "one" in a language) may be absent.
          const suffix = key.slice((base ?? "").length + 1);
          if (!own.has(key) && !(base !== null && !categories.includes(suffix))) missing.push(key);
        }
        expect(missing, `${lng}:${ns} missing`).toEqual([]);
        const extra = [...own.keys()].filter((key) => {
          if (english.has(key)) return false;
          const base = pluralBase(key);
          return !(
            base !== null &&
            englishPlurals.has(base) &&
            categories.includes(key.slice(base.length + 1))
          );
        });
        expect(extra, `${lng}:${ns} extra`).toEqual([]);
        for (const [key, value] of own) {
          expect(typeof value === "string" && value.trim() !== "", `${lng}:${ns}:${key} empty`).toBe(true);
          const base = pluralBase(key);
          const source = english.get(key) ?? (base !== null ? english.get(`${base}_other`) : undefined);
          if (typeof source === "string" && typeof value === "string") {
            expect(variables(value), `${lng}:${ns}:${key} variables`).toEqual(variables(source));
          }
        }
      });
    }
  }
});

describe("the browser's own validation sentences (web/lib/validationText.ts)", () => {
  const VALIDATION = join(import.meta.dirname, "../common/i18n/validation");
  const readValidation = (lng: string) =>
    JSON.parse(readFileSync(join(VALIDATION, `${lng}.json`), "utf8")) as Record<string, string>;

  it("reads them in the current language once its common namespace is in; English stays byte-identical", async () => {
    const email = checkText(RULES.email, "x") ?? FILL_REQUIRED_FIELDS;
    const blank = firstProblem([[RULES.email, "   "]]) ?? FILL_REQUIRED_FIELDS;
    await vi.waitFor(() => expect(hasValidationCatalogue("en")).toBe(true));
    expect(localValidation(email)).toBe("The e-mail address is not valid.");
    expect(localValidation(FILL_REQUIRED_FIELDS)).toBe("Please fill in all required fields!");
    expect(hasValidationCatalogue("de")).toBe(false);
    await setLanguage("de");
    expect(localValidation(email)).toBe("Die E-Mail-Adresse ist ungültig.");
    expect(localValidation(FILL_REQUIRED_FIELDS)).toBe("Bitte fülle alle Pflichtfelder aus!");
    expect(localValidation(blank)).toBe("Die E-Mail-Adresse ist erforderlich.");
    expect(localValidation(checkText(RULES.newPassword, "short") ?? FILL_REQUIRED_FIELDS)).toBe(
      "Das neue Passwort muss mindestens 8 Zeichen lang sein.",
    );
    await setLanguage("en");
    expect(localValidation(email)).toBe("The e-mail address is not valid.");
    expect(localValidation(FILL_REQUIRED_FIELDS)).toBe("Please fill in all required fields!");
  });

  for (const lng of LANGUAGES) {
    it(`${lng}: every sentence every rule can produce is rendered whole by the validation catalogue`, () => {
      const catalogue = readValidation(lng);
      const missing = new Set<string>();
      const rendered = VALIDATION_SENTENCES.map((message) =>
        renderMessage(message, (id, values) => {
          const text = catalogue[id];
          if (text === undefined) missing.add(id);
          return (text ?? id).replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
        }),
      );
      expect([...missing], `add to common/i18n/validation/${lng}.json`).toEqual([]);
      expect(rendered.filter((text) => text.includes("{{"))).toEqual([]);
    });
  }
});

describe("language choice and formats", () => {
  it("takes the browser's first supported language, a region counting as its language", () => {
    expect(pickLanguage(["ja-JP", "de-AT", "en-US"])).toBe("de");
    expect(pickLanguage(["pt_BR"])).toBe("pt");
    expect(pickLanguage(["ja", "zh-CN"])).toBeNull();
    expect(pickLanguage([])).toBeNull();
  });

  it("formats dates and prices in the current language and ignores unknown codes", async () => {
    await setLanguage("de");
    expect(currentLanguage()).toBe("de");
    expect(formatPrice(9.99, "usd")).toBe("9,99\u00a0$");
    expect(formatDate(Date.UTC(2026, 10, 26, 12), { dateStyle: "long", timeZone: "UTC" })).toBe(
      "26. November 2026",
    );
    await setLanguage("xx");
    expect(currentLanguage()).toBe("de");
    await setLanguage("en");
    expect(formatPrice(9.99, "USD")).toBe("$9.99");
    expect(formatDate("2026-11-26T12:00:00Z", { dateStyle: "long", timeZone: "UTC" })).toBe(
      "November 26, 2026",
    );
  });
});
