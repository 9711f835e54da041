// Request shapes of the accounts routes (owner set-up, sign-up, the admin's users and invitations), checked with zod.
import { z } from "zod";
import { AddedUser, Envelope, envelopeOf, Invitation, LoginData } from "../../../common/api";
import { RULES } from "../../../common/validation";
import { answers } from "../../http/route-schemas";
import { EmailField, textField, uuidField } from "../../http/validate";
import { msg, zodText } from "../../i18n/messages";
import { INVITATION_DAYS } from "./invitations";

/** "" (a form's empty field) as absent. */
const blankAsAbsent = (value: unknown) => (value === "" ? undefined : value);
const Token = z
  .string()
  .trim()
  .min(1, zodText(msg("members.linkNotValid")))
  .max(300, zodText(msg("members.linkNotValid")));
const OptionalName = z
  .string()
  .trim()
  .max(100, zodText(msg("members.nameMustMost100Characters")))
  .default("");
const OptionalInvite = z.preprocess(blankAsAbsent, Token.optional());
/** POST /api/setup: the one-time token and the owner's e-mail, password and optional name. */
export const SetupBody = z.object({
  token: Token,
  email: EmailField,
  password: textField(RULES.newPassword),
  name: OptionalName,
});
/** GET /api/setup/:token: the token of the set-up link. */
export const SetupParams = z.object({ token: Token });
/** POST /api/auth/signup/start: the e-mail to send a code to, and an invitation token where one was opened. */
export const SignupStartBody = z.object({ email: EmailField, invite: OptionalInvite });
/** POST /api/auth/signup/finish: the mailed 6-digit code with the new account's password and name. */
export const SignupFinishBody = z.object({
  email: EmailField,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, zodText(msg("members.code6DigitsEMail"))),
  password: textField(RULES.newPassword),
  name: textField(RULES.fullName),
  invite: OptionalInvite,
});
/** POST /api/admin/accounts: a user added by an admin; without a password one is generated. */
export const AddUserBody = z.object({
  email: EmailField,
  name: OptionalName,
  password: z.preprocess(blankAsAbsent, textField(RULES.newPassword).optional()),
  admin: z.enum(["0", "1"]).default("0").describe("`0`/`1`"),
});
/** POST /api/admin/invitations: an optional e-mail the invitation is locked to, and its lifetime in days (1-30). */
export const InvitationBody = z.object({
  email: z.preprocess(blankAsAbsent, EmailField.optional()),
  days: z.coerce
    .number()
    .int()
    .min(INVITATION_DAYS.min, zodText(msg("members.invitationLastsFrom130")))
    .max(INVITATION_DAYS.max, zodText(msg("members.invitationLastsFrom130")))
    .describe("1–30"),
});
/** POST /api/admin/invitations/:id/revoke: the invitation's id. */
export const InvitationParams = z.object({ id: uuidField(msg("field.id")) });

/** The "From" of the accounts routes in docs/api.md: ours, listed in product.md §7. */
const LISTED_OURS = "ours (listed in §7)";

/**
 * The documentation of an accounts route in its schema (the OpenAPI document): its `section` of
 * docs/api.md's routes, what it answers (the table's Answers cell) and where it comes from.
 */
export const membersDoc = (
  section: "Auth and accounts" | "Admin",
  description: string,
  from = LISTED_OURS,
) => ({
  tags: [section],
  description,
  "x-from": from,
});

/**
 * The answer of the sign-ins here (owner set-up, sign-up), as `presentSignIn` (auth.presenter.ts)
 * builds it and POST /api/auth/login answers: `page` and `data: { token, expirationTime, user }`.
 */
export const SIGN_IN_ANSWER = answers(envelopeOf(LoginData));
/** The answer of POST /api/admin/accounts: the new user under `data`. */
export const ADDED_USER_ANSWER = answers(envelopeOf(AddedUser));
/** The answer of GET /api/admin/invitations: the open invitations under `data`. */
export const INVITATIONS_ANSWER = answers(envelopeOf(Invitation.array()));
/** The answer of POST /api/admin/invitations: the new invitation under `data`. */
export const INVITATION_ANSWER = answers(envelopeOf(Invitation));
/** An answer with nothing but the envelope (`success`, `message`). */
export const BARE_ANSWER = answers(Envelope);
