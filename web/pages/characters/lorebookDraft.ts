// The lorebook editor's drafts: entries as typed text, read from a stored book and turned back into the lorebook field.
import type { CharacterBook, CharacterBookEntry } from "../../../common/api";
import { LOREBOOK_LIMITS } from "../../../common/constants";

/**
 * The character form's lorebook editor state: one draft per entry with its keys as the
 * comma-separated text the user types. Fields the editor does not show (insertion_order,
 * case_sensitive, id, name, comment) are kept from the entry it was opened with.
 */
export interface LoreDraft {
  /** Stable key for React lists; not sent. */
  key: string;
  keys: string;
  secondaryKeys: string;
  content: string;
  enabled: boolean;
  constant: boolean;
  selective: boolean;
  position: "before_char" | "after_char";
  /** The entry as loaded, for the fields the editor does not show; null for a new entry. */
  base: CharacterBookEntry | null;
}

/** An entry's content, characters (common/constants.ts LOREBOOK_LIMITS, the server's rule). */
export const LORE_CONTENT_MAX = LOREBOOK_LIMITS.contentChars;
/** Entries in a book (the server's rule). */
export const LORE_ENTRIES_MAX = LOREBOOK_LIMITS.entries;
/** SillyTavern's default insertion order for a new entry. */
const NEW_ENTRY_ORDER = 100;

let nextKey = 0;
const freshKey = () => `lore-${++nextKey}`;

/** "dragon, wyvern ," → ["dragon", "wyvern"]. */
export function splitKeys(text: string): string[] {
  return text
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
}

/** A new, empty entry: enabled, not constant, not selective, after the character. */
export function newDraft(): LoreDraft {
  return {
    key: freshKey(),
    keys: "",
    secondaryKeys: "",
    content: "",
    enabled: true,
    constant: false,
    selective: false,
    position: "after_char",
    base: null,
  };
}

/** The drafts of a stored book (none for null). */
export function draftsFromBook(book: CharacterBook | null | undefined): LoreDraft[] {
  return (book?.entries ?? []).map((entry) => ({
    key: freshKey(),
    keys: entry.keys.join(", "),
    secondaryKeys: entry.secondary_keys.join(", "),
    content: entry.content,
    enabled: entry.enabled,
    constant: entry.constant,
    selective: entry.selective,
    position: entry.position,
    base: entry,
  }));
}

/**
 * The `lorebook` field to send: the book's JSON with the drafts as entries (blank drafts, with
 * neither keys nor content, are dropped), '' when no entry is left. The book's own settings
 * (scan_depth, token_budget, recursive_scanning) are kept from `book`.
 */
export function lorebookField(book: CharacterBook | null | undefined, drafts: LoreDraft[]): string {
  const entries: CharacterBookEntry[] = drafts
    .filter((d) => d.content.trim() !== "" || splitKeys(d.keys).length > 0)
    .map((d) => ({
      ...(d.base ?? { case_sensitive: false, insertion_order: NEW_ENTRY_ORDER }),
      keys: splitKeys(d.keys),
      secondary_keys: splitKeys(d.secondaryKeys),
      content: d.content,
      enabled: d.enabled,
      constant: d.constant,
      selective: d.selective,
      position: d.position,
    }));
  if (entries.length === 0) return "";
  return JSON.stringify({ ...(book ?? {}), entries });
}
