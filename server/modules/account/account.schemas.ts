// Request shapes of the account routes (forgot and reset password, erasing the account), checked with zod.
import { z } from "zod";
import { RULES } from "../../../common/validation";
import { EmailField, textField } from "../../http/validate";

/** the password (accounts with one) or the typed e-mail / user name (accounts without). */
export const EraseBody = z.object({
  password: z.string().max(200, "The password is too long.").optional(),
  confirm: z.string().max(320, "The confirmation is too long.").optional(),
});
/** POST /api/auth/forgot-password: the e-mail to send the reset link to. */
export const ForgotBody = z.object({ email: EmailField });
/** product.md §5 "Reset password": both fields required; at least 8 characters is ours (common/validation.ts). */
export const ResetBody = z.object({
  npassword: textField(RULES.newPassword),
  rtpassword: textField(RULES.confirmPassword),
  code: z
    .string()
    .trim()
    .min(20, "The reset link is not valid; please ask for a new one.")
    .max(200, "The reset link is not valid; please ask for a new one."),
});
