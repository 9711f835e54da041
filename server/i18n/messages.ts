// The server's messages by id: the i18next catalogues of six languages, `msg` naming a message, and rendering it in a language.
import i18next from "i18next";
import {
  isMessage,
  type Message,
  type MessageParam,
  renderMessage,
  type ValidationId,
} from "../../common/i18n/message";
import valDe from "../../common/i18n/validation/de.json";
import valEn from "../../common/i18n/validation/en.json";
import valEs from "../../common/i18n/validation/es.json";
import valFr from "../../common/i18n/validation/fr.json";
import valIt from "../../common/i18n/validation/it.json";
import valPt from "../../common/i18n/validation/pt.json";
import de from "./messages/de.json";
import en from "./messages/en.json";
import es from "./messages/es.json";
import fr from "./messages/fr.json";
import it from "./messages/it.json";
import pt from "./messages/pt.json";

export { isMessage, type Message, type MessageParam } from "../../common/i18n/message";

/**
 * Server messages in the user's language, keyed by id. The code names a message with `msg(id,
 * params)`; the id is a key of the English catalogue server/i18n/messages/en.json (or of
 * common/i18n/validation/en.json, the form rules' sentences shared with the SPA), so a typo fails
 * the type check. The English rendering is what the API sends for English (and what tests pin);
 * the answer's language is applied where it leaves (server/i18n/translate.ts `localiseEnvelope`).
 * Catalogues use i18next's `{{name}}` placeholders; a parameter that is itself a message (a field
 * in words, a wait) is rendered in the same language (common/i18n/message.ts).
 */

/** The languages of the app (the six languages of the seeded characters). */
export const LANGUAGES = ["en", "es", "fr", "de", "it", "pt"] as const;
export type Language = (typeof LANGUAGES)[number];
/** The languages with a translated catalogue (English is the source). */
export const TRANSLATED_LANGUAGES = ["es", "fr", "de", "it", "pt"] as const satisfies readonly Language[];

/** Every message id the server may name: its own catalogue's and the validation catalogue's. */
export type MessageId = keyof typeof en | ValidationId;

type Catalogue = Readonly<Record<string, string>>;

/** The server's catalogue files as shipped (server/i18n/messages/<lng>.json): id -> text. */
export const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en, es, fr, de, it, pt };

/** The validation catalogue files (common/i18n/validation/<lng>.json): id -> text, shared with the SPA. */
export const VALIDATION_CATALOGUES: Readonly<Record<Language, Catalogue>> = {
  en: valEn,
  es: valEs,
  fr: valFr,
  de: valDe,
  it: valIt,
  pt: valPt,
};

/** One i18next instance of the server: both files of each language in one namespace, English the fallback. */
const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(
    LANGUAGES.map((lng) => [lng, { translation: { ...CATALOGUES[lng], ...VALIDATION_CATALOGUES[lng] } }]),
  ),
  lng: "en",
  fallbackLng: "en",
  supportedLngs: [...LANGUAGES],
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
  initAsync: false,
});

/**
 * The message `id` with the values of its placeholders, e.g. `msg("members.noAccountEMail", {
 * email })`. A parameter may itself be a message (a term, rendered in the same language).
 */
export function msg(id: MessageId, params?: Readonly<Record<string, MessageParam>>): Message<MessageId> {
  return params === undefined ? { id } : { id, params };
}

/**
 * How `message` reads in `language` (English by default): the language's text for its id, else
 * the English one; an id no catalogue knows reads as the id itself. Never throws.
 */
export function render(message: Message, language: Language = "en"): string {
  return renderMessage(message, (id, values) =>
    i18n.t(id, { lng: language, replace: values, defaultValue: id }),
  );
}

/** The English text of a message or plain text (plain text is kept as it is). */
export function english(text: string | Message): string {
  return typeof text === "string" ? text : render(text, "en");
}

/**
 * The key an envelope (or `error` event data) carries its message value under: a symbol, not
 * enumerable, so it never reaches the JSON nor a test's deep equality; a copy made with
 * `{ ...body }` loses it, so copies are made with `carry` again (or server/http/envelope.ts
 * `okWith`). `localiseEnvelope` uses it only while its English is still the envelope's message.
 */
export const MESSAGE = Symbol("message");

/**
 * Keeps `message` with `body` (under MESSAGE) so the answer can be rendered in the request's
 * language where it leaves; plain text is not kept. Returns `body`.
 */
export function carry<T extends object>(body: T, message: string | Message): T {
  if (isMessage(message)) Object.defineProperty(body, MESSAGE, { value: message, enumerable: false });
  return body;
}

/** The message value an envelope carries (`carry`), if any. */
export function carried(body: unknown): Message | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const value = (body as { [MESSAGE]?: unknown })[MESSAGE];
  return isMessage(value) ? value : undefined;
}

/** Marks a zod issue text that holds a message value (`zodText`), so `fromZodText` can read it back. */
const ZOD_PREFIX = "\u0000msg:";

/**
 * A message value as the text of a zod rule (`.min(n, zodText(msg(...)))`): zod keeps issue
 * texts as strings, so the value travels encoded and server/http/validate.ts decodes it.
 */
export function zodText(message: Message): string {
  return ZOD_PREFIX + JSON.stringify(message);
}

/** The message value of a zod issue text made by `zodText`, or undefined for any other text. */
export function fromZodText(text: string): Message | undefined {
  if (!text.startsWith(ZOD_PREFIX)) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(ZOD_PREFIX.length));
    return isMessage(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
