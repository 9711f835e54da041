import de from "./messages/de.json";
import es from "./messages/es.json";
import fr from "./messages/fr.json";
import it from "./messages/it.json";
import pt from "./messages/pt.json";

/**
 * Server messages in the user's language (issue 18). The code keeps writing English sentences;
 * just before an answer leaves, `translate` looks the finished sentence up in the language's
 * catalogue (server/i18n/messages/<lng>.json), keyed by the English sentence exactly as the code
 * writes it. A sentence with variable parts has a pattern key: `{name}` stands for any text,
 * `{#name}` for a number, e.g. "{name} has been created." or "You have reached your limit of
 * {#chat_limit} messages for today. Upgrade your plan to chat more.". The translation names the
 * same placeholders, in any order. A placeholder's text is itself translated when it is a
 * catalogue key (a field in words such as "the new password", a wait such as "5 minutes"), so
 * "{Field} is required." reads "Das neue Passwort ist erforderlich." Anything the catalogue does
 * not know stays English.
 *
 * Patterns come only from the catalogue files (escaped, fixed shapes), never from a request.
 */

/** The languages of the app (issue 18: the six languages of the seeded characters). */
export const LANGUAGES = ["en", "es", "fr", "de", "it", "pt"] as const;
export type Language = (typeof LANGUAGES)[number];
/** The languages with a catalogue (English is the keys themselves). */
export const TRANSLATED_LANGUAGES = ["es", "fr", "de", "it", "pt"] as const satisfies readonly Language[];

/** The catalogue files as shipped: English key -> translation. */
export const CATALOGUES: Readonly<Record<Exclude<Language, "en">, Readonly<Record<string, string>>>> = {
  es,
  fr,
  de,
  it,
  pt,
};

/**
 * Longest message translated, characters: longer ones (none of ours) are sent as they are, so
 * matching patterns costs a bounded time whatever text ends up in a message.
 */
export const TRANSLATE_MAX_LENGTH = 1000;
/** How deep placeholder texts are translated in turn ("{message} Please wait {wait} ..."). */
const MAX_DEPTH = 2;

/** `{name}` (any text) or `{#name}` (a number) in a key or a translation. */
const PLACEHOLDER = /\{(#?)([A-Za-z_][A-Za-z0-9_]*)\}/g;

interface Pattern {
  key: string;
  regex: RegExp;
  names: string[];
  translation: string;
  /** Characters of the key outside placeholders: the more, the earlier the pattern is tried. */
  weight: number;
}

interface Compiled {
  literals: Map<string, string>;
  patterns: Pattern[];
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The placeholders of a key or translation, in order of appearance: `{#n}` and `{n}` both give
 * "n".
 */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[2] as string);
}

/** A key's whole-sentence regex: literal parts escaped, `{#x}` a number, `{x}` any text (lazy). */
function patternOf(key: string, translation: string): Pattern {
  let source = "";
  let last = 0;
  let literal = 0;
  const names: string[] = [];
  for (const m of key.matchAll(PLACEHOLDER)) {
    const part = key.slice(last, m.index);
    source += escapeRegex(part);
    literal += part.length;
    source += m[1] === "#" ? "(-?\\d[\\d.,]*)" : "(.+?)";
    names.push(m[2] as string);
    last = (m.index ?? 0) + m[0].length;
  }
  source += escapeRegex(key.slice(last));
  literal += key.length - last;
  return { key, regex: new RegExp(`^${source}$`, "s"), names, translation, weight: literal };
}

function compile(catalogue: Readonly<Record<string, string>>): Compiled {
  const literals = new Map<string, string>();
  const patterns: Pattern[] = [];
  for (const [key, translation] of Object.entries(catalogue)) {
    if (typeof translation !== "string" || translation === "") continue;
    if (placeholders(key).length === 0) literals.set(key, translation);
    else patterns.push(patternOf(key, translation));
  }
  patterns.sort((a, b) => b.weight - a.weight);
  return { literals, patterns };
}

const compiled = new Map<Language, Compiled>(
  TRANSLATED_LANGUAGES.map((lng) => [lng, compile(CATALOGUES[lng])] as const),
);

/** What `explain` found for a message: the text sent and how it was made. */
export interface Explanation {
  /** The message in the language (the English one when nothing matched). */
  text: string;
  /** Whether a catalogue key matched the whole message. */
  matched: boolean;
  /** Every key used, the whole message's first. */
  keys: string[];
  /** Placeholder texts (not numbers) that no key translated, e.g. a character's name. */
  untranslated: string[];
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function lookup(message: string, table: Compiled, depth: number, out: Explanation): string | undefined {
  const literal = table.literals.get(message);
  if (literal !== undefined) {
    out.keys.push(message);
    return literal;
  }
  for (const pattern of table.patterns) {
    const match = pattern.regex.exec(message);
    if (!match) continue;
    out.keys.push(pattern.key);
    const values = new Map<string, string>();
    pattern.names.forEach((name, i) => {
      const value = match[i + 1] ?? "";
      values.set(name, depth < MAX_DEPTH ? part(value, table, depth + 1, out) : value);
    });
    return pattern.translation.replace(
      PLACEHOLDER,
      (whole, _hash, name: string) => values.get(name) ?? whole,
    );
  }
  return undefined;
}

/** A placeholder's text: translated when a key knows it (also capitalised: "The new password"). */
function part(value: string, table: Compiled, depth: number, out: Explanation): string {
  const found = find(value, table, depth, out);
  if (found !== undefined) return found;
  if (!/^-?\d[\d.,]*$/.test(value)) out.untranslated.push(value);
  return value;
}

/** The message's translation, trying it as written, then with a lower-case first letter. */
function find(message: string, table: Compiled, depth: number, out: Explanation): string | undefined {
  const direct = lookup(message, table, depth, out);
  if (direct !== undefined) return direct;
  const lowered = lowerFirst(message);
  if (lowered === message) return undefined;
  const found = lookup(lowered, table, depth, out);
  return found === undefined ? undefined : upperFirst(found);
}

/**
 * How `translate` turns `message` into `language` (for the key check and for tests).
 * @param message an English sentence as the code writes it.
 * @returns the translation and the keys it used; `matched` false when no key fits the message
 *   (the English message is then sent), and always for English or a message over
 *   TRANSLATE_MAX_LENGTH characters.
 */
export function explain(message: string, language: Language): Explanation {
  const out: Explanation = { text: message, matched: false, keys: [], untranslated: [] };
  const table = compiled.get(language);
  if (!table || message.length > TRANSLATE_MAX_LENGTH) return out;
  const found = find(message, table, 0, out);
  if (found === undefined) return { text: message, matched: false, keys: [], untranslated: [] };
  return { ...out, text: found, matched: true };
}

/**
 * A person-facing English server message in `language` (issue 18). English, unknown messages and
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
