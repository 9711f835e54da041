// The server's messages in six languages: the catalogues, translating a message, and localising an envelope's message.
import { type Compiled, compileCatalogue, type Explanation, explainWith } from "../../common/i18n/translate";
import valDe from "../../common/i18n/validation/de.json";
import valEs from "../../common/i18n/validation/es.json";
import valFr from "../../common/i18n/validation/fr.json";
import valIt from "../../common/i18n/validation/it.json";
import valPt from "../../common/i18n/validation/pt.json";
import de from "./messages/de.json";
import es from "./messages/es.json";
import fr from "./messages/fr.json";
import it from "./messages/it.json";
import pt from "./messages/pt.json";

export {
  type Compiled,
  type Explanation,
  placeholders,
  TRANSLATE_MAX_LENGTH,
} from "../../common/i18n/translate";

/**
 * Server messages in the user's language. The code keeps writing English sentences;
 * just before an answer leaves, `translate` looks the finished sentence up in the language's
 * catalogues: server/i18n/messages/<lng>.json, and common/i18n/validation/<lng>.json for the
 * sentences of common/validation.ts (shared with the SPA, web/lib/validationText.ts). The keys,
 * `{name}`/`{#name}` placeholders and the translation of placeholder texts ("{Field} is
 * required." + "the new password") are common/i18n/translate.ts's, the mechanism both sides
 * use; this module holds the server's catalogues and its envelope helpers. Patterns come only
 * from the catalogue files (escaped, fixed shapes), never from a request.
 */

/** The languages of the app (the six languages of the seeded characters). */
export const LANGUAGES = ["en", "es", "fr", "de", "it", "pt"] as const;
export type Language = (typeof LANGUAGES)[number];
/** The languages with a catalogue (English is the keys themselves). */
export const TRANSLATED_LANGUAGES = ["es", "fr", "de", "it", "pt"] as const satisfies readonly Language[];

/** The server's catalogue files as shipped: English key -> translation. */
export const CATALOGUES: Readonly<Record<Exclude<Language, "en">, Readonly<Record<string, string>>>> = {
  es,
  fr,
  de,
  it,
  pt,
};

/**
 * The validation catalogue files (common/i18n/validation/<lng>.json): the keys common/validation.ts
 * can produce (rule sentences, fields in words, its constants), shared with the SPA.
 */
export const VALIDATION_CATALOGUES: Readonly<
  Record<Exclude<Language, "en">, Readonly<Record<string, string>>>
> = { es: valEs, fr: valFr, de: valDe, it: valIt, pt: valPt };

/**
 * The catalogue `translate` uses for each language: the server's own file and the validation
 * sentences' file (shared with the SPA), merged; a key is in exactly one of them
 * (server/i18n/catalogue.test.ts).
 */
const compiled = new Map<Language, Compiled>(
  TRANSLATED_LANGUAGES.map(
    (lng) => [lng, compileCatalogue({ ...CATALOGUES[lng], ...VALIDATION_CATALOGUES[lng] })] as const,
  ),
);

/**
 * How `translate` turns `message` into `language` (for the key check and for tests).
 * @param message an English sentence as the code writes it.
 * @returns the translation and the keys it used; `matched` false when no key fits the message
 *   (the English message is then sent), and always for English or a message over
 *   TRANSLATE_MAX_LENGTH characters.
 */
export function explain(message: string, language: Language): Explanation {
  return explainWith(message, compiled.get(language));
}

/**
 * A person-facing English server message in `language`. English, unknown messages and
 * messages over TRANSLATE_MAX_LENGTH characters come back unchanged; never throws.
 */
export function translate(message: string, language: Language): string {
  return explain(message, language).text;
}

/**
 * The envelope (or `error` event data) with its `message` in `language`: a shallow copy when the
 * value is an object with a string `message` and a `success` of 0 or 1, otherwise the value
 * itself. Other fields are never touched.
 */
export function localiseEnvelope<T>(value: T, language: Language): T {
  if (language === "en" || !isEnvelope(value)) return value;
  const message = translate(value.message, language);
  return message === value.message ? value : { ...value, message };
}

/** Whether a value is the spec's envelope: an object with `success` 0 or 1 and a string `message`. */
export function isEnvelope(value: unknown): value is { success: 0 | 1; message: string } {
  if (typeof value !== "object" || value === null) return false;
  const body = value as { success?: unknown; message?: unknown };
  return (body.success === 0 || body.success === 1) && typeof body.message === "string";
}
