// Every sentence the form checks (common/validation.ts) can produce, which each language's validation catalogue must translate.
import {
  CONFIRM_PASSWORD_MISMATCH,
  FILL_REQUIRED_FIELDS,
  RETYPED_PASSWORD_MISMATCH,
  RULES,
  SEX_INVALID,
} from "../validation";
import type { Message, ValidationId } from "./message";

/**
 * Every sentence common/validation.ts can produce, as message values: each rule's sentences
 * (required, too short, too long, format, not text) and its constants. web/i18n.test.ts renders
 * each in every language with common/i18n/validation/<lng>.json alone.
 */
export const VALIDATION_SENTENCES: readonly Message<ValidationId>[] = [
  ...Object.values(RULES).flatMap((rule) => Object.values(rule.messages)),
  FILL_REQUIRED_FIELDS,
  RETYPED_PASSWORD_MISMATCH,
  CONFIRM_PASSWORD_MISMATCH,
  SEX_INVALID,
];
