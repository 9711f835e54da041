// A person-facing message as a value: a catalogue id and its parameters, rendered in a language by the caller's i18next instance.
import type validationEnglish from "./validation/en.json";

/**
 * Messages keyed by id, shared by the server (server/i18n/messages.ts) and the SPA
 * (web/lib/validationText.ts). The code names a message by its id in an English catalogue
 * (`{{name}}` placeholders, i18next's syntax); each language's catalogue maps the same ids to its
 * text. A parameter is text, a number, or itself a message (a term such as a field in words,
 * "the new password", or a wait, "5 minutes"), rendered in the same language first; a
 * parameter whose name starts with a capital (`{{Label}}`, `{{Field}}`) gets its first letter
 * capitalised ("The new password"). Pure: no catalogue loading, no Node or browser API.
 */

/** A parameter of a message: text and numbers are inserted as they are, a message is rendered. */
export type MessageParam = string | number | Message;

/** A message: the catalogue id and the values of its placeholders. */
export interface Message<Id extends string = string> {
  readonly id: Id;
  readonly params?: Readonly<Record<string, MessageParam>>;
}

/** The ids of the validation catalogue (common/i18n/validation/en.json). */
export type ValidationId = keyof typeof validationEnglish;

/** Whether a value is a message value (an object with a string `id`). */
export function isMessage(value: unknown): value is Message {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { id?: unknown }).id === "string" &&
    !Array.isArray(value)
  );
}

/** The message `id` with `params`: a plain value, checked against nothing (see the typed callers). */
export function messageOf<Id extends string>(
  id: Id,
  params?: Readonly<Record<string, MessageParam>>,
): Message<Id> {
  return params === undefined ? { id } : { id, params };
}

/** The validation message `id` (an id of common/i18n/validation/en.json, type-checked). */
export function vmsg(
  id: ValidationId,
  params?: Readonly<Record<string, MessageParam>>,
): Message<ValidationId> {
  return messageOf(id, params);
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * How a message reads with a lookup `text(id, values)` of one language (an i18next `t`): its
 * message parameters rendered first with the same lookup (at most `depth` levels), capitalised
 * when the placeholder's name starts with a capital letter; numbers become text as `String` writes
 * them. Never throws for a well-formed message.
 */
export function renderMessage(
  message: Message,
  text: (id: string, values: Record<string, string>) => string,
  depth = 3,
): string {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.params ?? {})) {
    let rendered: string;
    if (typeof value === "object") rendered = depth > 0 ? renderMessage(value, text, depth - 1) : value.id;
    else rendered = String(value);
    values[name] = /^[A-Z]/.test(name) && typeof value === "object" ? upperFirst(rendered) : rendered;
  }
  return text(message.id, values);
}
