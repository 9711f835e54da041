// Translating the server's English sentences with a language's catalogue: literal and pattern keys with placeholders, bounded in length.
import { escapeRegExp } from "../regex";

/**
 * The translation mechanism, shared by the server (server/i18n/translate.ts: its
 * messages by Accept-Language) and the SPA (web/lib/validationText.ts: the browser's own
 * validation sentences). Pure: no catalogue of its own, no Node or browser API; the caller
 * compiles a catalogue (`compileCatalogue`) and looks messages up in it (`explainWith`,
 * `translateWith`).
 *
 * The code keeps writing English sentences; a catalogue is keyed by the English sentence exactly
 * as the code writes it. A sentence with variable parts has a pattern key: `{name}` stands for
 * any text, `{#name}` for a number, e.g. "{name} has been created." or "You have reached your
 * limit of {#chat_limit} messages for today. Upgrade your plan to chat more.". The translation
 * names the same placeholders, in any order. A placeholder's text is itself translated when it
 * is a catalogue key (a field in words such as "the new password", a wait such as "5 minutes"),
 * so "{Field} is required." reads "Das neue Passwort ist erforderlich." Anything the catalogue
 * does not know stays English.
 *
 * Patterns come only from catalogue files (escaped, fixed shapes), never from a request.
 */

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

/** A catalogue made ready for look-ups by `compileCatalogue` (opaque to callers). */
export interface Compiled {
  literals: Map<string, string>;
  patterns: Pattern[];
}

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
    source += escapeRegExp(part);
    literal += part.length;
    source += m[1] === "#" ? "(-?\\d[\\d.,]*)" : "(.+?)";
    names.push(m[2] as string);
    last = (m.index ?? 0) + m[0].length;
  }
  source += escapeRegExp(key.slice(last));
  literal += key.length - last;
  return { key, regex: new RegExp(`^${source}$`, "s"), names, translation, weight: literal };
}

/**
 * A catalogue (English key -> translation, as in the JSON files) made ready for `explainWith`:
 * literal keys in a map, pattern keys as regexes, the longest literal parts tried first. Empty
 * translations are skipped (the key then stays English). Compile once per language and keep it.
 */
export function compileCatalogue(catalogue: Readonly<Record<string, string>>): Compiled {
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
 * How `message` reads with the compiled catalogue `table` (undefined: English, nothing changes).
 * @param message an English sentence as the code writes it.
 * @returns the translation and the keys it used; `matched` false when no key fits the message
 *   (the English message is then kept), and always without a table or for a message over
 *   TRANSLATE_MAX_LENGTH characters.
 */
export function explainWith(message: string, table: Compiled | undefined): Explanation {
  const out: Explanation = { text: message, matched: false, keys: [], untranslated: [] };
  if (!table || message.length > TRANSLATE_MAX_LENGTH) return out;
  const found = find(message, table, 0, out);
  if (found === undefined) return { text: message, matched: false, keys: [], untranslated: [] };
  return { ...out, text: found, matched: true };
}

/**
 * `message` in the compiled catalogue's language; unchanged without a table (English), when no
 * key fits, or over TRANSLATE_MAX_LENGTH characters. Never throws.
 */
export function translateWith(message: string, table: Compiled | undefined): string {
  return explainWith(message, table).text;
}
