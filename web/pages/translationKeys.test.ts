import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import i18n from "../i18n";
import { FAQ_KEYS, faqGroups } from "./faq/faqContent";
import { termsSections } from "./terms/termsContent";

/**
 * "UI translations": the keys the pages use exist. The catalogue check (web/i18n.test.ts)
 * compares the languages with English; this one reads the pages of the namespaces public, auth,
 * characters, profile and admin and checks that every key-shaped string literal ("pricing.title",
 * "characters:presets.cancel") names an English catalogue text of the file's namespace (its
 * `useTranslation("<ns>")`, or the `ns:` prefix). A misspelt key would otherwise show the key
 * itself on screen. The FAQ and terms (namespaces faq and terms, loaded with their pages), whose
 * keys are built from parts, are resolved in every language instead: 21 questions in five groups
 * and 11 sections, none left as a key.
 */

const WEB = join(import.meta.dirname, "..");
const LANGUAGES = ["en", "es", "fr", "de", "it", "pt"];
const SOURCES: Array<[dir: string, ns: string | null]> = [
  ["pages/home", "public"],
  ["pages/pricing", "public"],
  ["pages/faq", "faq"],
  ["pages/terms", "terms"],
  ["pages/contact", "public"],
  ["pages/forbidden", "public"],
  ["pages/system", "public"],
  ["pages/free-chat", "public"],
  ["components/public", "public"],
  ["pages/login", "auth"],
  ["pages/logout", "auth"],
  ["pages/reset-password", "auth"],
  ["pages/characters", "characters"],
  ["pages/profile", "profile"],
  ["pages/admin", "admin"],
];

/** A catalogue key as the pages write it: dotted camelCase words, optionally after `ns:`. */
const KEY = /^(?:([a-z]+):)?([a-z][A-Za-z]*(?:\.[a-z][A-Za-z]*)+)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

function english(ns: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(WEB, "locales", "en", `${ns}.json`), "utf8")) as Record<
    string,
    unknown
  >;
}

function has(catalogue: Record<string, unknown>, key: string): boolean {
  let node: unknown = catalogue;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string";
}

describe("the pages' translation keys", () => {
  it("every key-shaped literal of a page names an English text of its namespace", () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [dir, fallback] of SOURCES) {
      for (const file of sourceFiles(join(WEB, dir))) {
        const source = readFileSync(file, "utf8");
        const ns = /useTranslation\("([a-z]+)"\)/.exec(source)?.[1] ?? fallback;
        for (const match of source.matchAll(/"([^"\n]*)"/g)) {
          const key = KEY.exec(match[1] ?? "");
          if (key === null) continue;
          const namespace = key[1] ?? ns;
          if (namespace === null || namespace === undefined) continue;
          checked += 1;
          if (!has(english(namespace), key[2] ?? ""))
            missing.push(`${relative(WEB, file)}: ${namespace}:${key[2]}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  });

  for (const lng of LANGUAGES) {
    it(`${lng}: the FAQ (21 questions in five groups) and the 11 sections of the terms resolve`, async () => {
      // languages other than English, and the FAQ and terms catalogues, load on demand.
      await i18n.loadNamespaces(["faq", "terms"]);
      await i18n.loadLanguages(lng);
      expect(i18n.hasResourceBundle(lng, "faq")).toBe(true);
      expect(i18n.hasResourceBundle(lng, "terms")).toBe(true);
      const faq = i18n.getFixedT(lng, "faq");
      const terms = i18n.getFixedT(lng, "terms");
      const groups = faqGroups(faq);
      expect(groups).toHaveLength(FAQ_KEYS.length);
      const texts = groups.flatMap((group) => [
        group.title,
        ...group.entries.flatMap((entry) => [entry.question, ...entry.answer]),
      ]);
      expect(groups.flatMap((group) => group.entries)).toHaveLength(21);
      const sections = termsSections(terms);
      expect(sections).toHaveLength(11);
      texts.push(
        ...sections.flatMap((section) => [section.title, ...section.paragraphs, ...(section.items ?? [])]),
        faq("title"),
        terms("title"),
        terms("effective", { date: "08/01/2024" }),
        terms("contactLink"),
      );
      // A key left as it is: "general.what.q", "title".
      const unresolved = texts.filter(
        (text) => /^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)*$/.test(text) || text.includes("{{"),
      );
      expect(unresolved).toEqual([]);
    });
  }
});
