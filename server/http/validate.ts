// Checking request input with zod: text fields by common/validation.ts rules, e-mails, uuids, and the 400 with the first broken rule's sentence.
import { z } from "zod";
import { RULES, type TextRule } from "../../common/validation";
import { AppError } from "../errors";
import { english, fromZodText, type Message, msg, zodText } from "../i18n/messages";

/**
 * A string field checked by a rule of common/validation.ts, so the server refuses
 * exactly what the browser refuses, with the same sentence: trimmed when the rule says so, blank
 * refused when required (`messages.required`), then the length bounds and the format.
 * An optional field still needs `.optional()` / `.default("")` by the caller.
 */
export function textField(rule: TextRule) {
  const base = z.string({
    error: (issue) => zodText(issue.input === undefined ? rule.messages.required : rule.messages.notText),
  });
  const trimmed = rule.trim ? base.trim() : base;
  let field = trimmed;
  if (rule.required) field = field.min(1, zodText(rule.messages.required));
  if (rule.min !== undefined) field = field.min(rule.min, zodText(rule.messages.tooShort));
  field = field.max(rule.max, zodText(rule.messages.tooLong));
  const pattern = rule.pattern;
  if (pattern) field = field.refine((v) => v === "" || pattern.test(v), zodText(rule.messages.format));
  return field;
}

/**
 * A normalised e-mail address: trimmed, lower case, checked by `RULES.email` ("The
 * e-mail address is not valid.").
 */
export const EmailField = textField(RULES.email).toLowerCase();

/**
 * A uuid field whose failure reads "<The field in words> is not valid." (e.g. "The message id is
 * not valid."); `label` is the field in words, a term (`msg("field.characterId")`).
 */
export function uuidField(label: Message) {
  const invalid = zodText(msg("http.notValid", { Field: label }));
  const required = zodText(msg("http.required", { Field: label }));
  return z.uuid({ error: (issue) => (issue.input === undefined ? required : invalid) });
}

/**
 * Field names of the API edge in words, for issues no schema gave a sentence to (ids, paging,
 * flags, or a wrong type sent by a non-browser client).
 */
const FIELD_WORDS: Record<string, Message> = {
  id: msg("field.id"),
  uid: msg("field.userId"),
  uId: msg("field.userId"),
  cId: msg("field.characterId"),
  cid: msg("field.characterId"),
  gId: msg("field.groupId"),
  gid: msg("field.groupId"),
  characterId: msg("field.characterId"),
  clientMessageId: msg("field.clientMessageId"),
  offset: msg("field.offset"),
  limit: msg("field.pageSize"),
  after: msg("field.eventId"),
  message: msg("validation.field.message"),
  description: msg("field.description"),
  reply: msg("validation.field.reply"),
  ratio: msg("field.pictureRatio"),
  type: msg("field.pictureType"),
  mute: msg("field.muteFlag"),
  stream: msg("field.streamFlag"),
  time: msg("field.time"),
  is_greeting: msg("field.greetingFlag"),
  photo: msg("field.photo"),
  old_photo: msg("field.oldPhoto"),
  image: msg("field.image"),
  card: msg("field.characterCard"),
  audio: msg("field.recording"),
  name: msg("validation.field.name"),
  sex: msg("field.sex"),
  voice: msg("validation.field.voice"),
  v: msg("validation.field.voice"),
  language: msg("validation.field.language"),
  languageId: msg("validation.field.language"),
  greeting: msg("validation.field.greeting"),
  appearance: msg("validation.field.appearance"),
  email: msg("validation.field.eMailAddress"),
  password: msg("validation.field.password"),
  code: msg("field.code"),
  state: msg("field.state"),
  token: msg("field.token"),
  plan: msg("field.plan"),
  q: msg("field.searchText"),
  confirm: msg("field.confirmation"),
  blocked: msg("field.blockedFlag"),
  cl: msg("field.characterLimit"),
  vl: msg("field.voiceLimit"),
  pl: msg("field.photoFlag"),
  il: msg("field.imageFlag"),
  messageLimit: msg("field.messageLimit"),
  quotaPeriod: msg("field.quotaPeriod"),
  uncensored: msg("field.uncensoredFlag"),
  chatLimit: msg("field.chatLimit"),
  extraMessages: msg("field.numberExtraMessages"),
  price: msg("validation.field.price"),
  url: msg("field.url"),
  stripePriceId: msg("validation.field.stripePriceId"),
  fname: msg("validation.field.fullName"),
  cpassword: msg("validation.field.currentPassword"),
  npassword: msg("validation.field.newPassword"),
  rtpassword: msg("validation.field.retypedPassword"),
};

/** The field of an issue path in words, a term: "the character id", or "the field 'x.y'". */
function fieldWords(path: ReadonlyArray<PropertyKey>): Message {
  const last = path[path.length - 1];
  const known = typeof last === "string" ? FIELD_WORDS[last] : undefined;
  return known ?? msg("field.named", { join: path.map(String).join(".") });
}

/** The sentence of an issue no schema worded: names the field in words and the broken rule. */
function fallbackMessage(issue: z.core.$ZodRawIssue): Message {
  if (issue.path === undefined || issue.path.length === 0) return msg("http.requestNotValid");
  const Field = fieldWords(issue.path);
  switch (issue.code) {
    case "invalid_type":
      return msg(issue.input === undefined ? "http.required" : "http.notValid", { Field });
    case "too_small":
      return msg(issue.origin === "string" ? "http.mustLeastCharacters" : "http.mustLeast", {
        Field,
        minimum: String(issue.minimum),
      });
    case "too_big":
      return msg(issue.origin === "string" ? "http.mustMostCharacters" : "http.mustMost", {
        Field,
        maximum: String(issue.maximum),
      });
    case "invalid_value":
      return msg("http.mustOne", { Field, join: issue.values.map((v) => `'${String(v)}'`).join(", ") });
    default:
      return msg("http.notValid", { Field });
  }
}

/** `fallbackMessage` as zod's error map wants it: the message value as an issue text (`zodText`). */
const fallbackSentence = (issue: z.core.$ZodRawIssue) => zodText(fallbackMessage(issue));

/**
 * The message of an issue: the message value a schema gave (`zodText`); any other text is made a
 * sentence: kept when it starts with a capital, otherwise (an old-style fragment such as "is
 * required (a recording)") prefixed with the field in words and ended with a period.
 */
function asSentence(issue: z.core.$ZodIssue): Message | string {
  const value = fromZodText(issue.message);
  if (value) return value;
  const message = issue.message.trim();
  if (/^[A-Z]/.test(message)) return /[.!?]$/.test(message) ? message : `${message}.`;
  const field = issue.path.length ? fieldWords(issue.path) : undefined;
  const Field = field === undefined ? "The request" : english(field).replace(/^./, (c) => c.toUpperCase());
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
  return { error: new AppError("bad_request", issue ? asSentence(issue) : msg("http.requestNotValid")) };
}
