// Checking request input with zod: text fields by common/validation.ts rules, e-mails, uuids, and the 400 with the first broken rule's sentence.
import { z } from "zod";
import { capitalize, RULES, type TextRule } from "../../common/validation";
import { type AppError, badRequest } from "../errors";

/**
 * A string field checked by a rule of common/validation.ts, so the server refuses
 * exactly what the browser refuses, with the same sentence: trimmed when the rule says so, blank
 * refused when required (`messages.required`), then the length bounds and the format.
 * An optional field still needs `.optional()` / `.default("")` by the caller.
 */
export function textField(rule: TextRule) {
  const base = z.string({
    error: (issue) => (issue.input === undefined ? rule.messages.required : rule.messages.notText),
  });
  const trimmed = rule.trim ? base.trim() : base;
  let field = trimmed;
  if (rule.required) field = field.min(1, rule.messages.required);
  if (rule.min !== undefined) field = field.min(rule.min, rule.messages.tooShort);
  field = field.max(rule.max, rule.messages.tooLong);
  const pattern = rule.pattern;
  if (pattern) field = field.refine((v) => v === "" || pattern.test(v), rule.messages.format);
  return field;
}

/**
 * A normalised e-mail address: trimmed, lower case, checked by `RULES.email` ("The
 * e-mail address is not valid.").
 */
export const EmailField = textField(RULES.email).toLowerCase();

/**
 * A uuid field whose failure reads "<The field in words> is not valid." (e.g. "The message id is
 * not valid.").
 */
export function uuidField(label: string) {
  const sentence = `${capitalize(label)} is not valid.`;
  return z.uuid({
    error: (issue) => (issue.input === undefined ? `${capitalize(label)} is required.` : sentence),
  });
}

/**
 * Field names of the API edge in words, for issues no schema gave a sentence to (ids, paging,
 * flags, or a wrong type sent by a non-browser client).
 */
const FIELD_WORDS: Record<string, string> = {
  id: "the id",
  uid: "the user id",
  uId: "the user id",
  cId: "the character id",
  cid: "the character id",
  gId: "the group id",
  gid: "the group id",
  characterId: "the character id",
  clientMessageId: "the client message id",
  offset: "the offset",
  limit: "the page size",
  after: "the event id",
  message: "the message",
  description: "the description",
  reply: "the reply",
  ratio: "the picture ratio",
  type: "the picture type",
  mute: "the mute flag",
  stream: "the stream flag",
  time: "the time",
  is_greeting: "the greeting flag",
  photo: "the photo",
  old_photo: "the old photo",
  image: "the image",
  card: "the character card",
  audio: "the recording",
  name: "the name",
  sex: "the sex",
  voice: "the voice",
  v: "the voice",
  language: "the language",
  languageId: "the language",
  greeting: "the greeting",
  appearance: "the appearance",
  email: "the e-mail address",
  password: "the password",
  code: "the code",
  state: "the state",
  token: "the token",
  plan: "the plan",
  q: "the search text",
  confirm: "the confirmation",
  blocked: "the blocked flag",
  cl: "the character limit",
  vl: "the voice limit",
  pl: "the photo flag",
  il: "the image flag",
  messageLimit: "the message limit",
  quotaPeriod: "the quota period",
  uncensored: "the uncensored flag",
  chatLimit: "the chat limit",
  extraMessages: "the number of extra messages",
  price: "the price",
  url: "the URL",
  stripePriceId: "the Stripe price id",
  fname: "the full name",
  cpassword: "the current password",
  npassword: "the new password",
  rtpassword: "the retyped password",
};

/** The field of an issue path in words: "the character id", or "the field 'x.y'". */
function fieldWords(path: ReadonlyArray<PropertyKey>): string {
  const last = path[path.length - 1];
  const known = typeof last === "string" ? FIELD_WORDS[last] : undefined;
  return known ?? `the field '${path.map(String).join(".")}'`;
}

/** The sentence of an issue no schema worded: names the field in words and the broken rule. */
function fallbackSentence(issue: z.core.$ZodRawIssue): string {
  if (issue.path === undefined || issue.path.length === 0) return "The request is not valid.";
  const Field = capitalize(fieldWords(issue.path));
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? `${Field} is required.` : `${Field} is not valid.`;
    case "too_small":
      return issue.origin === "string"
        ? `${Field} must be at least ${issue.minimum} characters.`
        : `${Field} must be at least ${issue.minimum}.`;
    case "too_big":
      return issue.origin === "string"
        ? `${Field} must be at most ${issue.maximum} characters.`
        : `${Field} must be at most ${issue.maximum}.`;
    case "invalid_value":
      return `${Field} must be one of ${issue.values.map((v) => `'${String(v)}'`).join(", ")}.`;
    default:
      return `${Field} is not valid.`;
  }
}

/**
 * Makes any issue message a sentence: a message a schema wrote as a sentence is kept; an old-style
 * fragment ("is required (a recording)") is prefixed with the field in words and ends with a period.
 */
function asSentence(issue: z.core.$ZodIssue): string {
  const message = issue.message.trim();
  if (/^[A-Z]/.test(message)) return /[.!?]$/.test(message) ? message : `${message}.`;
  const Field = issue.path.length ? capitalize(fieldWords(issue.path)) : "The request";
  return `${Field} ${message.replace(/[.!?]$/, "")}.`;
}

/**
 * Validates client input against a zod schema (the message is a sentence for people).
 * @returns the parsed value.
 * @throws AppError 400 whose message is the sentence of the first failing rule, e.g. "The new
 *   password must be at least 8 characters." — the schema's own sentence (built from
 *   common/validation.ts), or one naming the field in words when the schema gave none.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const checked = checkInput(schema, input);
  if ("error" in checked) throw checked.error;
  return checked.value;
}

/**
 * `parseInput` without the throw, for a route's validator (server/http/route-schemas.ts): a
 * missing part (undefined or null) is checked as `{}`.
 * @returns the parsed value, or the AppError 400 `parseInput` would throw.
 */
export function checkInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { value: z.infer<S> } | { error: AppError } {
  const result = schema.safeParse(input ?? {}, { error: fallbackSentence });
  if (result.success) return { value: result.data };
  const issue = result.error.issues[0];
  return { error: badRequest(issue ? asSentence(issue) : "The request is not valid.") };
}
