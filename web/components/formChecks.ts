// The checks every form runs in the browser before it sends: required fields, the server's rules, matching passwords.
import type { Message } from "../../common/i18n/message";
import { CONFIRM_PASSWORD_MISMATCH, RULES, type TextRule } from "../../common/validation";
import { warnPublic } from "../lib/notify";
import { firstLocalProblem, localValidation } from "../lib/validationText";

/** How a form reports what stops it (see `formReady`). */
export interface FormCheckOptions {
  /** Shows a rule's sentence: `warnPublic` on the public pages, `warn` once signed in (product.md §8). */
  warn: (message: string) => void;
  /** Runs when a required field is blank (the signed-in forms' 'Oops...' modal, product.md §5). */
  onBlank?: () => void;
  /** A new password and its confirmation, and the sentence (common/validation.ts) when they differ. */
  match?: { values: readonly [string, string]; sentence: Message };
}

/**
 * Whether a form may be sent: every required field filled (`required.validate()` flags the blank
 * ones, product.md §5), then each of `checks` within the server's rule (common/validation.ts,
 * its sentence in the app's language), then the two `match` values equal. The first thing
 * that fails is reported through `options` and the answer is false; nothing is thrown.
 */
export function formReady(
  required: { validate: () => boolean },
  checks: ReadonlyArray<readonly [TextRule, string]>,
  { warn, onBlank, match }: FormCheckOptions,
): boolean {
  if (!required.validate()) {
    onBlank?.();
    return false;
  }
  const problem = firstLocalProblem(checks);
  if (problem) {
    warn(problem);
    return false;
  }
  if (match !== undefined && match.values[0] !== match.values[1]) {
    warn(localValidation(match.sentence));
    return false;
  }
  return true;
}

/**
 * `formReady` for the public forms that choose a password (sign-up, owner set-up, reset):
 * `checks`, then the new password and its confirmation within their rules, then equal (else
 * 'New and Confirm password do not match.', product.md §5, 8); each problem a public warning toast.
 */
export function newPasswordReady(
  required: { validate: () => boolean },
  checks: ReadonlyArray<readonly [TextRule, string]>,
  password: string,
  confirm: string,
): boolean {
  const all = [...checks, [RULES.newPassword, password] as const, [RULES.confirmPassword, confirm] as const];
  const match = { values: [password, confirm], sentence: CONFIRM_PASSWORD_MISMATCH } as const;
  return formReady(required, all, { warn: warnPublic, match });
}
