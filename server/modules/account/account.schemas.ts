// Request shapes of the account routes (forgot and reset password, erasing the account, the export's download), checked with zod, and their documentation.
import { z } from "zod";
import { RULES } from "../../../common/validation";
import { EmailField, textField } from "../../http/validate";
import { msg, zodText } from "../../i18n/messages";

/** the password (accounts with one) or the typed e-mail / user name (accounts without). */
export const EraseBody = z.object({
  password: z
    .string()
    .max(200, zodText(msg("account.passwordTooLong")))
    .optional()
    .describe("accounts with one"),
  confirm: z
    .string()
    .max(320, zodText(msg("account.confirmationTooLong")))
    .optional()
    .describe("the typed e-mail or user name"),
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
    .min(20, zodText(msg("account.resetLinkNotValidAsk")))
    .max(200, zodText(msg("account.resetLinkNotValidAsk"))),
});

/** An export id as the server makes them (a lower-case uuid). */
const EXPORT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The id no export has: what any other id becomes, so it is unknown (404) like a missing export. */
const NO_EXPORT = "00000000-0000-0000-0000-000000000000";

/**
 * GET /api/account/export/:id/download: the export's id; anything but an id as the server makes
 * them is read as an id no export has (404 from the database, never a 400).
 */
export const ExportParams = z.object({
  id: z.string().transform((id) => (EXPORT_ID.test(id) ? id : NO_EXPORT)),
});

/**
 * The documentation of an account route in its schema (the OpenAPI document): its section of
 * docs/api.md's routes, what it answers (the Answers cell), where it comes from (From) and, when
 * not the default, who may call it.
 */
export const accountDoc = (
  section: "Auth and accounts" | "Account export and erase",
  description: string,
  from: string,
  who?: string,
) => ({
  tags: [section],
  description,
  "x-from": from,
  ...(who ? { "x-who": who } : {}),
});

/**
 * The documentation of a route behind the bearer session that is not in a `signedIn` scope (it
 * authenticates afresh, server/http/auth.ts `requireUser`): the session and who may call it.
 */
export const sessionDoc = (description: string, who = "signed in") => ({
  ...accountDoc("Account export and erase", description, "ours", who),
  security: [{ session: [] }],
});
