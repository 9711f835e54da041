import { beforeAll, describe, expect, it } from "vitest";
import {
  CONFIRM_PASSWORD_MISMATCH,
  FILL_REQUIRED_FIELDS,
  RETYPED_PASSWORD_MISMATCH,
  RULES,
  SEX_INVALID,
} from "../../common/validation";
import { type ScannedMessages, scanMessages } from "./message-scan";
import { CATALOGUES, explain, placeholders, TRANSLATED_LANGUAGES } from "./translate";

/**
 * The key check of issue 18: every person-facing message the server's source writes, and every
 * sentence the validation rules produce, has a translation in every language; no catalogue keeps
 * a key the source no longer writes. A failure lists the keys to add or remove.
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
      const catalogue = CATALOGUES[language];
      const missing = wanted.filter((key) => !catalogue[key]?.trim());
      expect(missing, `add to server/i18n/messages/${language}.json`).toEqual([]);
      const badPlaceholders = wanted.filter(
        (key) =>
          catalogue[key] &&
          [...placeholders(catalogue[key])].sort().join() !== [...placeholders(key)].sort().join(),
      );
      expect(badPlaceholders, "translations must keep the key's placeholders").toEqual([]);
    });

    it(`${language}: no key that the source no longer writes`, () => {
      const known = new Set(wanted);
      const stale = Object.keys(CATALOGUES[language]).filter((key) => !known.has(key));
      expect(stale, `remove from server/i18n/messages/${language}.json`).toEqual([]);
    });

    it(`${language}: every sentence of every validation rule is translated whole`, () => {
      const sentences = [
        ...Object.values(RULES).flatMap((rule) => Object.values(rule.messages)),
        FILL_REQUIRED_FIELDS,
        RETYPED_PASSWORD_MISMATCH,
        CONFIRM_PASSWORD_MISMATCH,
        SEX_INVALID,
      ];
      const untranslated = sentences
        .map((sentence) => ({ sentence, result: explain(sentence, language) }))
        .filter(({ result }) => !result.matched || result.untranslated.length > 0)
        .map(({ sentence }) => sentence);
      expect(untranslated).toEqual([]);
    });
  }
});
