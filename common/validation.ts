// The form fields' rules (product.md §5, §8), shared by browser and server: lengths, e-mail and password rules and their sentences.
/**
 * The input rules of every form field, defined once for the server and the SPA: the
 * rule (required, length, format) and the sentence a person reads when it is broken. The server
 * builds its zod schemas from these (server/http/validate.ts), the browser checks the same rules
 * before sending (`checkText`), so both show the same sentence.
 *
 * Texts follow product.md §5 "Validation rules" and product.md §8 "Error catalogue" where the spec gives one;
 * elsewhere they are ours, full sentences naming the field in words. A sentence is a message value
 * (common/i18n/message.ts): an id of common/i18n/validation/en.json with its parameters, which the
 * server and the SPA render in the reader's language. Limits come from product.md §9
 * (common/constants.ts) or are ours where the spec names none.
 */
import {
  APPEARANCE_MAX_LENGTH,
  BACKSTORY_MAX_LENGTH,
  GREETING_MAX_LENGTH,
  MESSAGE_MAX_LENGTH,
  REPLY_EDIT_MAX_LENGTH,
  SENDER_ABOUT_MAX_LENGTH,
  SENDER_NAME_MAX_LENGTH,
} from "./constants";
import { type Message, type ValidationId, vmsg } from "./i18n/message";

/** product.md §8 "Character or profile validation": the popup text when a required field is blank. */
export const FILL_REQUIRED_FIELDS = vmsg("validation.fillRequiredFields");
/** product.md §8 "Change password (signed in) mismatch". */
export const RETYPED_PASSWORD_MISMATCH = vmsg("validation.retypedPasswordMismatch");
/** product.md §8 "Reset password mismatch". */
export const CONFIRM_PASSWORD_MISMATCH = vmsg("validation.confirmPasswordMismatch");

/**
 * The e-mail format the server accepts (zod's own e-mail pattern, so browser and server agree):
 * a local part without leading or doubled dots, "@", then dotted labels ending in a 2+ letter
 * top-level domain.
 */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
/** Ours (RFC 5321): the longest e-mail address accepted, characters. */
export const EMAIL_MAX_LENGTH = 254;
/** Ours: passwords have at least 8 characters (the spec names no rule); at most 256. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** The rule of one text field and the sentence shown for each way it can be broken. */
export interface TextRule {
  /** The field in words as sentences name it, lower case: "the new password" (a term). */
  readonly label: Message<ValidationId>;
  /** Blank (after trimming, when `trim`) is refused with `messages.required`. */
  readonly required: boolean;
  /** Whether the value is trimmed before it is checked and stored (passwords are not). */
  readonly trim: boolean;
  /** Fewest characters (beyond non-blank), if any. */
  readonly min?: number;
  /** Most characters. */
  readonly max: number;
  /** A format the (trimmed) value must match when it is not empty. */
  readonly pattern?: RegExp;
  readonly messages: {
    readonly required: Message<ValidationId>;
    readonly tooShort: Message<ValidationId>;
    readonly tooLong: Message<ValidationId>;
    readonly format: Message<ValidationId>;
    /** Not text at all (a number or object sent by a non-browser client). */
    readonly notText: Message<ValidationId>;
  };
}

/** "the new password" -> "The new password". */
export function capitalize(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

interface RuleInput {
  /** The id of the field in words ("validation.field.newPassword": "the new password"). */
  label: ValidationId;
  required?: boolean;
  trim?: boolean;
  min?: number;
  max: number;
  pattern?: RegExp;
  /** The sentence when blank; by default "<Label> is required.". */
  requiredMessage?: Message<ValidationId>;
  /** The sentence when the pattern does not match; by default "<Label> is not valid.". */
  formatMessage?: Message<ValidationId>;
}

/** Builds a rule whose sentences name the field: "The new password must be at least 8 characters.". */
function textRule(input: RuleInput): TextRule {
  const Label = vmsg(input.label);
  return {
    label: Label,
    required: input.required ?? false,
    trim: input.trim ?? true,
    min: input.min,
    max: input.max,
    pattern: input.pattern,
    messages: {
      required: input.requiredMessage ?? vmsg("validation.required", { Label }),
      tooShort: vmsg("validation.tooShort", { Label, n: input.min ?? 1 }),
      tooLong: vmsg("validation.tooLong", { Label, max: input.max }),
      format: input.formatMessage ?? vmsg("validation.format", { Label }),
      notText: vmsg("validation.notText", { Label }),
    },
  };
}

/** Every form field's rule, by form. */
export const RULES = {
  /** product.md §5 "Chat message": trimmed, at most 150 characters, not sent when empty. */
  chatMessage: textRule({
    label: "validation.field.message",
    required: true,
    max: MESSAGE_MAX_LENGTH,
    requiredMessage: vmsg("validation.messageEmpty"),
  }),
  /**
   * Ours ("Edit"): the text a user writes into a reply, trimmed, 1 to
   * REPLY_EDIT_MAX_LENGTH characters ("The reply is empty.", "The reply must be at most 4000
   * characters.").
   */
  replyEdit: textRule({
    label: "validation.field.reply",
    required: true,
    max: REPLY_EDIT_MAX_LENGTH,
    requiredMessage: vmsg("validation.replyEmpty"),
  }),
  /** Ours (chat settings): the name the user goes by in replies (`pname`); may be empty. */
  senderName: textRule({ label: "validation.field.nameGoBy", max: SENDER_NAME_MAX_LENGTH }),
  /** Ours (chat settings): the user's words about themself (`ptext`); may be empty. */
  senderAbout: textRule({ label: "validation.field.wordsAboutYourself", max: SENDER_ABOUT_MAX_LENGTH }),
  /** product.md §5 free subscribe, contact, login, forgot password: e-mail required (format: ours). */
  email: textRule({
    label: "validation.field.eMailAddress",
    required: true,
    max: EMAIL_MAX_LENGTH,
    pattern: EMAIL_PATTERN,
    formatMessage: vmsg("validation.emailNotValid"),
  }),
  /** product.md §5 "Login": e-mail required; its format is not checked at sign-in (a wrong one just fails). */
  loginEmail: textRule({ label: "validation.field.eMailAddress", required: true, max: EMAIL_MAX_LENGTH }),
  /** product.md §5 "Login": password required (not trimmed). */
  loginPassword: textRule({ label: "validation.field.password", required: true, trim: false, max: 1024 }),
  /** product.md §5 "Password change (signed in)": all three fields required. */
  currentPassword: textRule({
    label: "validation.field.currentPassword",
    required: true,
    trim: false,
    max: PASSWORD_MAX_LENGTH,
  }),
  /** product.md §5 password change and reset: required; at least 8 characters is ours. */
  newPassword: textRule({
    label: "validation.field.newPassword",
    required: true,
    trim: false,
    min: PASSWORD_MIN_LENGTH,
    max: PASSWORD_MAX_LENGTH,
  }),
  /** product.md §5 "Password change (signed in)": the retyped password is required. */
  retypedPassword: textRule({
    label: "validation.field.retypedPassword",
    required: true,
    trim: false,
    max: PASSWORD_MAX_LENGTH,
  }),
  /** product.md §5 "Reset password": the confirmed password is required. */
  confirmPassword: textRule({
    label: "validation.field.confirmedPassword",
    required: true,
    trim: false,
    max: PASSWORD_MAX_LENGTH,
  }),
  /** product.md §5 "Character save": name required (popup text of product.md §8); at most 50 is ours. */
  characterName: textRule({
    label: "validation.field.name",
    required: true,
    max: 50,
    requiredMessage: FILL_REQUIRED_FIELDS,
  }),
  /** product.md §5 "Character save": voice required. */
  characterVoice: textRule({
    label: "validation.field.voice",
    required: true,
    max: 100,
    requiredMessage: FILL_REQUIRED_FIELDS,
  }),
  /** product.md §5 "Character save": language required. */
  characterLanguage: textRule({
    label: "validation.field.language",
    required: true,
    max: 100,
    requiredMessage: FILL_REQUIRED_FIELDS,
  }),
  /** product.md §5 "Character save": backstory required, at most 2000 characters. */
  backstory: textRule({
    label: "validation.field.backstory",
    required: true,
    max: BACKSTORY_MAX_LENGTH,
    requiredMessage: FILL_REQUIRED_FIELDS,
  }),
  /** product.md §5 "Character save": greeting at most 800 characters. */
  greeting: textRule({ label: "validation.field.greeting", max: GREETING_MAX_LENGTH }),
  /** product.md §5 "Character save": appearance at most 100 characters. */
  appearance: textRule({ label: "validation.field.appearance", max: APPEARANCE_MAX_LENGTH }),
  /** product.md §5 "Profile save": full name required (same popup); at most 100 is ours. */
  fullName: textRule({
    label: "validation.field.fullName",
    required: true,
    max: 100,
    requiredMessage: FILL_REQUIRED_FIELDS,
  }),
  /** product.md §5 "Profile save": user name required (same popup); at most 50 is ours. */
  userName: textRule({
    label: "validation.field.userName",
    required: true,
    max: 50,
    requiredMessage: FILL_REQUIRED_FIELDS,
  }),
  /** product.md §5 "Contact": name required. */
  contactName: textRule({ label: "validation.field.yourName", required: true, max: 100 }),
  /** product.md §5 "Contact": subject required. */
  contactSubject: textRule({ label: "validation.field.subject", required: true, max: 200 }),
  /** product.md §5 "Contact": message required. */
  contactMessage: textRule({ label: "validation.field.message", required: true, max: 5000 }),
  /** Ours (admin console): a plan's name. */
  planName: textRule({ label: "validation.field.planName", required: true, max: 100 }),
  /** Ours (admin console): the monthly price in dollars, e.g. "9.99". */
  planPrice: textRule({
    label: "validation.field.price",
    required: true,
    max: 9,
    pattern: /^\d{1,5}(\.\d{1,2})?$/,
    formatMessage: vmsg("validation.priceFormat"),
  }),
  /** Ours (admin console): a plan's HTML description. */
  planDescription: textRule({ label: "validation.field.planDescription", max: 5000 }),
  /** Ours (admin console): a plan's own page. */
  planUrl: textRule({ label: "validation.field.planUrl", max: 500 }),
  /** Ours (admin console): the Stripe price id, "price_..." or empty. */
  stripePriceId: textRule({
    label: "validation.field.stripePriceId",
    max: 200,
    pattern: /^(price_[A-Za-z0-9_]+)?$/,
    formatMessage: vmsg("validation.stripePriceIdFormat"),
  }),
} as const satisfies Record<string, TextRule>;

/** product.md §5 "Character save": sex options Female ('0') and Male ('1'). */
export const SEX_VALUES = ["0", "1"] as const;
/** The sentence when the sex is neither '0' nor '1' (blank is `FILL_REQUIRED_FIELDS`). */
export const SEX_INVALID = vmsg("validation.sexInvalid");

/**
 * Checks one value against its rule the way the server does.
 * @returns the sentence (message value) of the first broken rule, or null when the value is accepted.
 */
export function checkText(rule: TextRule, value: string): Message<ValidationId> | null {
  const v = rule.trim ? value.trim() : value;
  if (v.length === 0) return rule.required ? rule.messages.required : null;
  if (rule.min !== undefined && v.length < rule.min) return rule.messages.tooShort;
  if (v.length > rule.max) return rule.messages.tooLong;
  if (rule.pattern && !rule.pattern.test(v)) return rule.messages.format;
  return null;
}

/**
 * Checks several fields in order.
 * @returns the first sentence of `[rule, value]` pairs that is broken, or null.
 */
export function firstProblem(
  checks: ReadonlyArray<readonly [TextRule, string]>,
): Message<ValidationId> | null {
  for (const [rule, value] of checks) {
    const problem = checkText(rule, value);
    if (problem) return problem;
  }
  return null;
}
