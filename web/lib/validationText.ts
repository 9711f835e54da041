// The browser's validation sentences (common/validation.ts) in the current language, rendered by id through the SPA's i18next.
import { type Message, renderMessage } from "../../common/i18n/message";
import { checkText, firstProblem, type TextRule } from "../../common/validation";
import i18n, { currentLanguage, VALIDATION_NAMESPACE } from "../i18n";

/**
 * A sentence of the browser's own checks (common/validation.ts: `checkText`, `firstProblem`,
 * FILL_REQUIRED_FIELDS, RETYPED_PASSWORD_MISMATCH, CONFIRM_PASSWORD_MISMATCH, SEX_INVALID), a
 * message value, in the current language: its id looked up in the validation catalogue
 * (common/i18n/validation/<lng>.json, the same one the server uses, loaded by web/i18n.ts as the
 * `validation` namespace), English when the language's catalogue lacks it; its term parameters
 * (the field in words) rendered the same way. Never throws; before any catalogue has loaded the
 * id itself is shown.
 */
export function localValidation(message: Message): string {
  const lng = currentLanguage();
  return renderMessage(message, (id, values) =>
    i18n.t(id, {
      ns: VALIDATION_NAMESPACE,
      lng,
      keySeparator: false,
      nsSeparator: false,
      replace: values,
      defaultValue: id,
    }),
  );
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
