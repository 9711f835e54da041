// Request shapes of the profile routes (profile, update, age, UI language, password change), checked with zod, and their documentation.

import { z } from "zod";
import { UI_LANGUAGES } from "../../../common/constants";
import { RULES } from "../../../common/validation";
import { optionalUpload } from "../../http/uploads";
import { textField } from "../../http/validate";
import { msg, zodText } from "../../i18n/messages";

/** The user's own id, when the call names it (product.md §7). */
export const SelfQuery = z.object({ id: z.string().max(100).optional().describe("must be one's own") });
/** POST /api/users/update: full name, user name, an optional new photo and the old one. */
export const UpdateBody = z.object({
  fname: textField(RULES.fullName),
  name: textField(RULES.userName),
  photo: optionalUpload,
  old_photo: z.string().max(200).optional(),
  id: z.string().max(100).optional(),
});
/** Ours: the person ticks "I am 18 or older". */
export const ConfirmAgeBody = z.object({
  confirm: z.literal("1", zodText(msg("users.confirmAdult"))),
});
/** Ours: the UI language kept with the account, one of the six codes. */
export const UiLanguageBody = z.object({
  language: z.enum(UI_LANGUAGES, zodText(msg("users.languageNotOneOf"))).describe("en, es, fr, de, it, pt"),
});
/** product.md §5 "Password change (signed in)": all three required (rules of common/validation.ts). */
export const PasswordBody = z.object({
  cpassword: textField(RULES.currentPassword),
  npassword: textField(RULES.newPassword),
  rtpassword: textField(RULES.retypedPassword),
  id: z.string().max(100).optional(),
});

/**
 * The documentation of a profile route in its schema (the OpenAPI document): what it answers
 * (docs/api.md's Answers cell) and where it comes from (From).
 */
export const usersDoc = (description: string, from: string) => ({
  tags: ["Users and profile"],
  description,
  "x-from": from,
});
