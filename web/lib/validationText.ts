// The browser's validation sentences (common/validation.ts) in the current language, from the server's catalogues.
import { type Compiled, compileCatalogue, translateWith } from "../../common/i18n/translate";
import { checkText, firstProblem, type TextRule } from "../../common/validation";
import { currentLanguage, validationCatalogue } from "../i18n";

/** Each loaded validation catalogue compiled once (keyed by the catalogue object). */
const compiled = new WeakMap<Readonly<Record<string, string>>, Compiled>();

/**
 * An English sentence of the browser's own checks (common/validation.ts: `checkText`,
 * `firstProblem`, FILL_REQUIRED_FIELDS, RETYPED_PASSWORD_MISMATCH, CONFIRM_PASSWORD_MISMATCH,
 * SEX_INVALID) in the current language, translated by common/i18n/translate.ts with the
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

/**
 * common/validation.ts's `checkText` with its sentence in the current language (`localValidation`):
 * the sentence `value` breaks of `rule`, or null when it is fine.
 */
export function localCheck(rule: TextRule, value: string): string | null {
  const problem = checkText(rule, value);
  return problem === null ? null : localValidation(problem);
}

/**
 * common/validation.ts's `firstProblem` with its sentence in the current language
 * (`localValidation`): the first broken rule's sentence, or null when every value is fine.
 */
export function firstLocalProblem(checks: ReadonlyArray<readonly [TextRule, string]>): string | null {
  const problem = firstProblem(checks);
  return problem === null ? null : localValidation(problem);
}
