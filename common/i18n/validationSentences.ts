// Every sentence the form checks (common/validation.ts) can produce, which each language's validation catalogue must translate.
import {
  CONFIRM_PASSWORD_MISMATCH,
  FILL_REQUIRED_FIELDS,
  RETYPED_PASSWORD_MISMATCH,
  RULES,
  SEX_INVALID,
} from "../validation";

/**
 * Every sentence common/validation.ts can produce: each rule's sentences (required,
 * too short, too long, format, not text) and its constants. The catalogue key checks
 * (server/i18n/catalogue.test.ts, web/i18n.test.ts) require each to be translated whole by
 * common/i18n/validation/<lng>.json in every language.
 */
export const VALIDATION_SENTENCES: readonly string[] = [
  ...Object.values(RULES).flatMap((rule) => Object.values(rule.messages)),
  FILL_REQUIRED_FIELDS,
  RETYPED_PASSWORD_MISMATCH,
  CONFIRM_PASSWORD_MISMATCH,
  SEX_INVALID,
];
