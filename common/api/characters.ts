// The characters' wire shapes (product.md §3): list items, presets, a character's detail with its lorebook, groups.

/**
 * Declared once here and re-exported by common/api.ts: the server's characters presenter
 * (server/modules/characters/characters.presenter.ts) returns them and the SPA's web/api reads them.
 */

/** product.md §3: a character in lists (`characters/list`, `characters/list/chat`). */
export interface CharacterListItem {
  characterUUID: string;
  characterName: string;
  characterPhoto: string;
  characterDescription: string;
  characterGreeting: string;
}

/**
 * One lorebook entry, as the Character Card V2 spec's `character_book.entries[]`
 * (server/modules/prompt/lorebook.ts has the rules that use it).
 */
export interface CharacterBookEntry {
  id?: number;
  keys: string[];
  secondary_keys: string[];
  content: string;
  enabled: boolean;
  constant: boolean;
  selective: boolean;
  case_sensitive: boolean;
  insertion_order: number;
  position: "before_char" | "after_char";
  name?: string;
  comment?: string;
  extensions?: Record<string, unknown>;
}

/** A character's lorebook, as the Character Card V2 spec's `character_book`. */
export interface CharacterBook {
  name?: string;
  scan_depth?: number;
  token_budget?: number;
  recursive_scanning?: boolean;
  extensions?: Record<string, unknown>;
  entries: CharacterBookEntry[];
}

/** product.md §3: a preset character (`characters/selection`). characterSex '0' female, '1' male. */
export interface PresetCharacter {
  characterPreDefinedUUID: string;
  characterName: string;
  characterPhoto: string;
  characterSex: "0" | "1";
  characterDescription: string;
}

/**
 * product.md §3 "Character (detail)" (`GET characters/?id=`), as the server always sends it:
 * characterSex '0' female, '1' male; characterPhoto a file name under /content/characters/;
 * languageUUID one of `characters/languages`. Ours besides: the lorebook, the alternate greetings
 * and the Generation section (null where the model connection's default applies).
 */
export interface CharacterDetail {
  characterUUID: string;
  characterName: string;
  characterSex: "0" | "1";
  characterVoice: string;
  languageUUID: string;
  characterDescription: string;
  characterGreeting: string;
  /** The spec calls it optional; this server always sends it ("" when none). */
  characterAppearance: string;
  characterPhoto: string;
  /** Ours: the lorebook as a Character Card V2 `character_book`, or null. */
  characterLorebook: CharacterBook | null;
  /** Ours: the alternate greetings (swipes of the first message), [] when none. */
  characterAlternateGreetings: string[];
  /** Ours: the longest reply in tokens, or null for the model connection's. */
  characterMaxTokens: number | null;
  /** Ours: the reply's temperature (0 to 2), or null for the model connection's. */
  characterTemperature: number | null;
  /** Ours: the author's note ("" when none). */
  characterAuthorsNote: string;
  /** Ours: the author's note's depth in messages from the end, or null for the default (4). */
  characterAuthorsNoteDepth: number | null;
}

/** product.md §3 "Group": a member of a group chat; memberPhoto is a file name under /content/characters/. */
export interface CharacterGroupMember {
  /** Ours: the member's characterUUID. */
  memberUUID: string;
  memberName: string;
  memberPhoto: string;
}

/** product.md §3 "Group": a group chat with its members (`characters/group/list`). */
export interface CharacterGroup {
  groupUUID: string;
  members: CharacterGroupMember[];
}
