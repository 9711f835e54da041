import { beforeAll, describe, expect, it } from "vitest";
import { compileCatalogue, explainWith } from "../../common/i18n/translate";
import { VALIDATION_SENTENCES } from "../../common/i18n/validationSentences";
import { type ScannedMessages, scanMessages } from "./message-scan";
import { CATALOGUES, explain, placeholders, TRANSLATED_LANGUAGES, VALIDATION_CATALOGUES } from "./translate";

/**
 * The key check of every person-facing message the server's source writes, and every
 * sentence the validation rules produce, has a translation in every language; no catalogue keeps
 * a key the source no longer writes. A key is in exactly one of the two files of a language: the
 * server's (server/i18n/messages) or the validation sentences' (common/i18n/validation, shared with
 * the SPA, which must hold everything those sentences need). A failure lists the keys to add,
 * remove or move.
 */
describe("server message catalogues", () => {
  let scanned: ScannedMessages;
  let wanted: string[];
  beforeAll(() => {
    scanned = scanMessages();
    wanted = [...scanned.messages.keys(), ...scanned.terms.keys()];
  }, 120_000);

  it("the scan finds the messages of every kind of source", () => {
    const keys = new Set(wanted);
    // A helper call, a constant it names, a template, a rule's sentence, a zod rule, a term.
    for (const key of [
      "Character not found.",
      "Please confirm that you are 18 or older to chat.",
      "{name} has been created.",
      "You have reached your limit of {#chat_limit} messages for today. Upgrade your plan to chat more.",
      "{Label} must be at most {#max} characters.",
      "The client message id must be at most 100 characters.",
      "{Field} must be at least {#minimum} characters.",
      "the character id",
      "Session expired, please login again.",
    ]) {
      expect(keys, key).toContain(key);
    }
    expect(scanned.messages.size).toBeGreaterThan(150);
  });

  for (const language of TRANSLATED_LANGUAGES) {
    it(`${language}: every key has a translation with the same placeholders`, () => {
      const catalogue = { ...CATALOGUES[language], ...VALIDATION_CATALOGUES[language] };
      const missing = wanted.filter((key) => !catalogue[key]?.trim());
      expect(missing, `add to server/i18n/messages/${language}.json`).toEqual([]);
      const badPlaceholders = wanted.filter(
        (key) =>
          catalogue[key] &&
          [...placeholders(catalogue[key])].sort().join() !== [...placeholders(key)].sort().join(),
      );
      expect(badPlaceholders, "translations must keep the key's placeholders").toEqual([]);
    });

    it(`${language}: no key that the source no longer writes, none in both files`, () => {
      const known = new Set(wanted);
      const keys = [...Object.keys(CATALOGUES[language]), ...Object.keys(VALIDATION_CATALOGUES[language])];
      const stale = keys.filter((key) => !known.has(key));
      expect(stale, `remove from server/i18n/messages/${language}.json`).toEqual([]);
      const both = Object.keys(VALIDATION_CATALOGUES[language]).filter((key) => key in CATALOGUES[language]);
      expect(both, "a key is in exactly one of the two files").toEqual([]);
    });

    it(`${language}: the validation file alone translates every validation sentence whole, and holds only what they use`, () => {
      const table = compileCatalogue(VALIDATION_CATALOGUES[language]);
      const used = new Set<string>();
      const untranslated = VALIDATION_SENTENCES.filter((sentence) => {
        const result = explainWith(sentence, table);
        for (const key of result.keys) used.add(key);
        return !result.matched || result.untranslated.length > 0;
      });
      expect(untranslated, `add to common/i18n/validation/${language}.json`).toEqual([]);
      const unused = Object.keys(VALIDATION_CATALOGUES[language]).filter((key) => !used.has(key));
      expect(unused, `move to server/i18n/messages/${language}.json`).toEqual([]);
    });

    it(`${language}: the server translates every validation sentence as the validation file does`, () => {
      const table = compileCatalogue(VALIDATION_CATALOGUES[language]);
      const differ = VALIDATION_SENTENCES.filter(
        (sentence) => explain(sentence, language).text !== explainWith(sentence, table).text,
      );
      expect(differ).toEqual([]);
    });
  }
});
