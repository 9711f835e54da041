// Lorebooks (world info): a card's character_book parsed defensively, and which entries a reply's prompt gets (SillyTavern semantics).
import type { CharacterBook, CharacterBookEntry } from "../../../common/api";
import { LOREBOOK_LIMITS } from "../../../common/constants";
import { carry, english, isMessage, type Message, msg } from "../../i18n/messages";

/**
 * Lorebooks (world info): the Character Card V2/V3 `character_book`, parsed defensively,
 * and the choice of the entries a reply's prompt gets, with the community's semantics.
 *
 * Verified against the Character Card V2 spec (malfoyslastname/character-card-spec-v2, `CharacterBook`)
 * and SillyTavern's `public/scripts/world-info.js` (`convertCharacterBook`, `WorldInfoBuffer`,
 * `checkWorldInfo`, `getSortedEntries`):
 * - `enabled: false` entries are never inserted (SillyTavern: `disable = !enabled`).
 * - `constant` entries are always inserted, still within the token budget (spec: "always inserted
 *   in the prompt (within budget limit)").
 * - Otherwise an entry needs a primary key (`keys`) found in the scanned text. Matching is a plain
 *   substring search, case-insensitive unless the entry's `case_sensitive` is true (SillyTavern's
 *   defaults: no whole-word matching, not case-sensitive). Blank keys are ignored; an entry with no
 *   keys is only inserted when constant. Regular-expression keys (V3 `use_regex`) are matched as
 *   plain text.
 * - `selective`: when true and `secondary_keys` is not empty, at least one secondary key must also
 *   be found (SillyTavern's default logic "AND ANY"); when false, `secondary_keys` are ignored.
 * - `scan_depth`: how many of the newest messages are scanned (SillyTavern's default depth: 2).
 * - Priority: entries are considered by `insertion_order` from highest to lowest (SillyTavern's
 *   `sortFn = b.order - a.order`; equal orders keep the book's order). Each activated entry's
 *   content plus a newline is added to the running text; the first entry that brings the running
 *   text's token count to `token_budget` or beyond is left out and the selection stops there (later,
 *   smaller entries are not tried: SillyTavern breaks out of the loop once the budget overflowed).
 * - `recursive_scanning`: the content of entries inserted in one pass is scanned for further keys
 *   in the next pass, until a pass adds nothing, the budget overflows, or `MAX_RECURSION_PASSES`.
 * - `position`: `before_char` goes before the character's description, anything else (including a
 *   missing position) after it (SillyTavern: `position === 'before_char' ? before : after`).
 * - Order in the prompt: by `insertion_order` ascending within each position (spec: "lower insertion
 *   order = inserted higher"); entries with empty content are not inserted.
 */

export { LOREBOOK_LIMITS };

/** Newest messages scanned when the book gives no `scan_depth` (SillyTavern's default). */
export const DEFAULT_SCAN_DEPTH = 2;
/** Most messages a book may ask to scan. */
export const MAX_SCAN_DEPTH = 100;
/** Tokens for lore when the book gives no `token_budget`. */
export const DEFAULT_TOKEN_BUDGET = 512;
/** Passes of recursive scanning at most (the first scan included). */
export const MAX_RECURSION_PASSES = 5;

/**
 * One entry of a `character_book` (common/api.ts `CharacterBookEntry`), with every field present:
 * `id` null when the book gives none; its `extensions` are not read.
 */
export interface LoreEntry extends Required<Omit<CharacterBookEntry, "id" | "extensions">> {
  id: number | null;
}

/** A `character_book` with its book-level settings (absent ones are null: defaults apply). */
export interface Lorebook {
  name: string;
  scan_depth: number | null;
  token_budget: number | null;
  recursive_scanning: boolean;
  entries: LoreEntry[];
}

/** What `parseLorebook` answers: the book, or a sentence saying what is wrong. */
/** A book, or why it is refused: the sentence in English, its message value carried (`refused`). */
export type LorebookParse = { ok: true; book: Lorebook } | { ok: false; message: string };

/** A refusal of `parseLorebook`: `{ ok: false, message }` carrying the message value (`carry`). */
const refused = (message: Message): LorebookParse => carry({ ok: false, message: english(message) }, message);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function nonNegativeInt(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : null;
}

function keyList(v: unknown, label: Message, index: number): string[] | Message {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((k) => typeof k !== "string"))
    return msg("prompt.lorebookEntryMustListWords", { label, n: index + 1 });
  const keys = (v as string[]).map((k) => k.trim()).filter(Boolean);
  if (keys.length > LOREBOOK_LIMITS.keysPerEntry)
    return msg("prompt.lorebookEntryMoreThan", {
      n: index + 1,
      keysPerEntry: LOREBOOK_LIMITS.keysPerEntry,
      label,
    });
  if (keys.some((k) => k.length > LOREBOOK_LIMITS.keyChars))
    return msg("prompt.lorebookEntryMustMostCharacters", {
      label,
      n: index + 1,
      keyChars: LOREBOOK_LIMITS.keyChars,
    });
  return keys;
}

const text = (v: unknown, max: number) => (typeof v === "string" ? v.slice(0, max) : "");

function parseEntry(raw: unknown, index: number): LoreEntry | Message {
  if (!isObject(raw)) return msg("prompt.lorebookEntryNotObject", { n: index + 1 });
  const keys = keyList(raw.keys, msg("prompt.term.keys"), index);
  if (!Array.isArray(keys)) return keys;
  const secondary = keyList(raw.secondary_keys, msg("prompt.term.secondaryKeys"), index);
  if (!Array.isArray(secondary)) return secondary;
  if (raw.content !== undefined && typeof raw.content !== "string")
    return msg("prompt.contentLorebookEntryMustText", { n: index + 1 });
  const content = typeof raw.content === "string" ? raw.content : "";
  if (content.length > LOREBOOK_LIMITS.contentChars)
    return msg("prompt.contentLorebookEntryMustMost", {
      n: index + 1,
      contentChars: LOREBOOK_LIMITS.contentChars,
    });
  const order = typeof raw.insertion_order === "number" && Number.isFinite(raw.insertion_order);
  return {
    id: typeof raw.id === "number" && Number.isFinite(raw.id) ? raw.id : null,
    name: text(raw.name, LOREBOOK_LIMITS.nameChars),
    comment: text(raw.comment, LOREBOOK_LIMITS.nameChars),
    keys,
    secondary_keys: secondary,
    content,
    // The spec requires `enabled`; a card that leaves it out means the entry to be used.
    enabled: raw.enabled !== false,
    constant: raw.constant === true,
    selective: raw.selective === true,
    case_sensitive: raw.case_sensitive === true,
    insertion_order: order ? (raw.insertion_order as number) : 0,
    position: raw.position === "before_char" ? "before_char" : "after_char",
  };
}

/**
 * Reads a `character_book` object (from a card's `data.character_book` or the character form),
 * keeping the fields above and ignoring unknown ones.
 * @returns the book, or `{ ok: false, message }` with a sentence for the user: not an object,
 *   more than 200 entries, an entry's content over 2000 characters, over 20 keys in an entry, keys
 *   that are not words.
 */
export function parseLorebook(value: unknown): LorebookParse {
  if (!isObject(value)) return refused(msg("prompt.lorebookMustObjectEntries"));
  const rawEntries = value.entries ?? [];
  if (!Array.isArray(rawEntries)) return refused(msg("prompt.lorebookEntriesMustBeList"));
  if (rawEntries.length > LOREBOOK_LIMITS.entries)
    return refused(msg("prompt.lorebookHaveMostEntries", { entries: LOREBOOK_LIMITS.entries }));
  const entries: LoreEntry[] = [];
  for (const [index, raw] of rawEntries.entries()) {
    const entry = parseEntry(raw, index);
    if (isMessage(entry)) return refused(entry);
    entries.push(entry);
  }
  const scanDepth = nonNegativeInt(value.scan_depth);
  return {
    ok: true,
    book: {
      name: text(value.name, LOREBOOK_LIMITS.nameChars),
      scan_depth: scanDepth === null ? null : Math.min(scanDepth, MAX_SCAN_DEPTH),
      token_budget: nonNegativeInt(value.token_budget),
      recursive_scanning: value.recursive_scanning === true,
      entries,
    },
  };
}

/**
 * Reads a book stored as JSON text (the character's `lorebook` column or the form's field).
 * @returns the book, `null` for empty text, or `{ ok: false, message }` for bad JSON, text over
 *   600,000 characters or a book `parseLorebook` refuses.
 */
export function parseLorebookJson(json: string): LorebookParse | null {
  if (json.trim() === "") return null;
  if (json.length > LOREBOOK_LIMITS.jsonChars) return refused(msg("prompt.lorebookTooLargeMost600"));
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return refused(msg("prompt.lorebookNotValidJson"));
  }
  return parseLorebook(value);
}

/** A stored book for use in a prompt: null when there is none or it no longer parses. */
export function storedLorebook(json: string | null | undefined): Lorebook | null {
  const parsed = json ? parseLorebookJson(json) : null;
  return parsed?.ok ? parsed.book : null;
}

/** The entries a prompt gets, each list in prompt order, and why each was chosen. */
export interface LoreSelection {
  before: LoreEntry[];
  after: LoreEntry[];
  /** Why each chosen entry fired (the prompt inspector). */
  why: Map<LoreEntry, LoreMatch>;
}

/**
 * Why an entry fired: constant, or the key (and secondary key) found, and where: one of the
 * messages scanned (`messageFromEnd`, 0 the newest) or the content of entries inserted before
 * (recursive scanning).
 */
export type LoreMatch =
  | { constant: true }
  | {
      constant: false;
      key: string;
      secondaryKey?: string;
      foundIn: "message" | "lore";
      messageFromEnd?: number;
    };

function contains(haystack: string, key: string, caseSensitive: boolean): boolean {
  return caseSensitive ? haystack.includes(key) : haystack.toLowerCase().includes(key.toLowerCase());
}

/** Why `entry` fires on the scanned texts (newest message last), or null when it does not. */
function activates(entry: LoreEntry, messages: readonly string[], lore: readonly string[]): LoreMatch | null {
  if (entry.constant) return { constant: true };
  const scanned = [...messages, ...lore].join("\n");
  const found = (key: string) => contains(scanned, key, entry.case_sensitive);
  const key = entry.keys.find(found);
  if (key === undefined) return null;
  let secondaryKey: string | undefined;
  if (entry.selective && entry.secondary_keys.length > 0) {
    secondaryKey = entry.secondary_keys.find(found);
    if (secondaryKey === undefined) return null;
  }
  const at = messages.findLastIndex((m) => contains(m, key, entry.case_sensitive));
  return at >= 0
    ? { constant: false, key, secondaryKey, foundIn: "message", messageFromEnd: messages.length - 1 - at }
    : { constant: false, key, secondaryKey, foundIn: "lore" };
}

/**
 * Chooses the entries of `book` to insert for the newest messages (the rules in this file's
 * header: SillyTavern's and the V2 spec's semantics).
 * @param recentMessages the chat's messages, oldest first; only the newest `scan_depth` are scanned.
 * @param countTokens tokens of a text (the prompt's counter).
 * @param maxTokens an upper bound on the budget from the prompt (the book's `token_budget` is used
 *   when smaller; `DEFAULT_TOKEN_BUDGET` when the book gives none).
 * @param recursed with `recursive_scanning`: content inserted already (e.g. the constant entries
 *   chosen apart, prompt.ts), scanned from the second pass on.
 * @returns the entries before and after the character, each by `insertion_order` ascending.
 */
export function selectLoreEntries(
  book: Lorebook | null,
  recentMessages: readonly string[],
  countTokens: (text: string) => number,
  maxTokens: number = Number.POSITIVE_INFINITY,
  recursed: readonly string[] = [],
): LoreSelection {
  if (!book) return { before: [], after: [], why: new Map() };
  const depth = book.scan_depth ?? DEFAULT_SCAN_DEPTH;
  const budget = Math.min(book.token_budget ?? DEFAULT_TOKEN_BUDGET, maxTokens);
  const window = depth > 0 ? recentMessages.slice(-depth) : [];
  // Highest insertion_order first; Array.prototype.sort is stable, so ties keep the book's order.
  const candidates = book.entries
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => entry.enabled)
    .sort((a, b) => b.entry.insertion_order - a.entry.insertion_order);
  const chosen = new Set<number>();
  const picked: Array<{ entry: LoreEntry; index: number }> = [];
  const why = new Map<LoreEntry, LoreMatch>();
  let insertedText = "";
  let scannedAgain: string[] = [];
  let overflowed = false;
  for (let pass = 0; pass < MAX_RECURSION_PASSES && !overflowed; pass++) {
    const activated = candidates
      .filter(({ index }) => !chosen.has(index))
      .map((item) => ({ ...item, match: activates(item.entry, window, scannedAgain) }))
      .filter((item) => item.match !== null);
    const added: string[] = [];
    for (const item of activated) {
      const next = `${insertedText}${item.entry.content}\n`;
      if (countTokens(next) >= budget) {
        overflowed = true;
        break;
      }
      insertedText = next;
      chosen.add(item.index);
      picked.push(item);
      why.set(item.entry, item.match!);
      added.push(item.entry.content);
    }
    if (!book.recursive_scanning || (added.length === 0 && (pass > 0 || recursed.length === 0))) break;
    if (pass === 0) scannedAgain = [...recursed];
    scannedAgain = [...scannedAgain, ...added];
  }
  const inPromptOrder = picked
    .filter(({ entry }) => entry.content.trim() !== "")
    .sort((a, b) => a.entry.insertion_order - b.entry.insertion_order || a.index - b.index)
    .map(({ entry }) => entry);
  return {
    before: inPromptOrder.filter((e) => e.position === "before_char"),
    after: inPromptOrder.filter((e) => e.position === "after_char"),
    why,
  };
}

/** A book back in `character_book` shape (for the card export and the form). */
export function toCharacterBook(book: Lorebook): CharacterBook {
  return {
    name: book.name,
    ...(book.scan_depth === null ? {} : { scan_depth: book.scan_depth }),
    ...(book.token_budget === null ? {} : { token_budget: book.token_budget }),
    recursive_scanning: book.recursive_scanning,
    extensions: {},
    entries: book.entries.map((e) => ({
      ...(e.id === null ? {} : { id: e.id }),
      keys: e.keys,
      secondary_keys: e.secondary_keys,
      content: e.content,
      enabled: e.enabled,
      constant: e.constant,
      selective: e.selective,
      case_sensitive: e.case_sensitive,
      insertion_order: e.insertion_order,
      position: e.position,
      name: e.name,
      comment: e.comment,
      extensions: {},
    })),
  };
}
