import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUES, TRANSLATED_LANGUAGES, VALIDATION_CATALOGUES } from "./messages";

/**
 * The key check of the message catalogues, by id: every id of the English catalogue
 * (server/i18n/messages/en.json, and common/i18n/validation/en.json shared with the SPA) has a
 * non-empty text in every language with the same `{{placeholders}}`, no language has an id English
 * lacks, no id is in both files, and every id is named somewhere in the server's or common/'s
 * source (a plain string search for `"<id>"`), so none is left unused.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

/** The `{{name}}` placeholders of a text, sorted. */
const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] as string).sort();

/** Every non-test source file of server/ and common/, as one text. */
function sources(): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name))
        out.push(readFileSync(full, "utf8"));
    }
  };
  walk(path.join(ROOT, "server"));
  walk(path.join(ROOT, "common"));
  return out.join("\n");
}

describe("message catalogues", () => {
  const files = [
    ["server/i18n/messages", CATALOGUES],
    ["common/i18n/validation", VALIDATION_CATALOGUES],
  ] as const;

  for (const language of TRANSLATED_LANGUAGES) {
    for (const [dir, catalogues] of files) {
      it(`${dir}/${language}.json: the ids of English, none empty, the same placeholders`, () => {
        const english = catalogues.en;
        const own = catalogues[language];
        const missing = Object.keys(english).filter((id) => !own[id]?.trim());
        expect(missing, `add to ${dir}/${language}.json`).toEqual([]);
        const extra = Object.keys(own).filter((id) => !(id in english));
        expect(extra, `remove from ${dir}/${language}.json`).toEqual([]);
        const differ = Object.keys(english).filter(
          (id) =>
            own[id] !== undefined && placeholders(own[id]).join() !== placeholders(english[id] ?? "").join(),
        );
        expect(differ, "translations must keep the English placeholders").toEqual([]);
      });
    }
  }

  it("no id is in both files; English texts are non-empty", () => {
    const both = Object.keys(VALIDATION_CATALOGUES.en).filter((id) => id in CATALOGUES.en);
    expect(both).toEqual([]);
    for (const [, catalogues] of files) {
      expect(Object.entries(catalogues.en).filter(([, text]) => !text.trim())).toEqual([]);
    }
  });

  it("every id is named in the source (no unused ids)", () => {
    const text = sources();
    const unused = [...Object.keys(CATALOGUES.en), ...Object.keys(VALIDATION_CATALOGUES.en)].filter(
      (id) => !text.includes(`"${id}"`),
    );
    expect(unused, "remove from every catalogue, or name it with msg()").toEqual([]);
  });
});
