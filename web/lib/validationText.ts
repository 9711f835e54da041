import { type Compiled, compileCatalogue, translateWith } from "../../common/i18n/translate";
import { currentLanguage, validationCatalogue } from "../i18n";

/** Each loaded validation catalogue compiled once (keyed by the catalogue object). */
const compiled = new WeakMap<Readonly<Record<string, string>>, Compiled>();

/**
 * An English sentence of the browser's own checks (common/validation.ts: `checkText`,
 * `firstProblem`, FILL_REQUIRED_FIELDS, RETYPED_PASSWORD_MISMATCH, CONFIRM_PASSWORD_MISMATCH,
 * SEX_INVALID) in the current language (issue 18), translated by common/i18n/translate.ts with the
 * language's validation catalogue, the same one the server uses (common/i18n/validation). English
 * comes back unchanged, as does a sentence while the catalogue has not loaded or that it does not
 * know. Never throws.
 */
export function localValidation(sentence: string): string {
  const catalogue = validationCatalogue(currentLanguage());
  if (catalogue === undefined) return sentence;
  let table = compiled.get(catalogue);
  if (table === undefined) {
    table = compileCatalogue(catalogue);
    compiled.set(catalogue, table);
  }
  return translateWith(sentence, table);
}
