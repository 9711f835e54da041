// The tables of characters: the presets, the users' own characters, and the languages and voices they choose from.
import type { Generated } from "kysely";

export interface LanguagesTable {
  id: string;
  name: string;
  /** BCP 47 code, e.g. "en". */
  code: string;
  sort_order: number;
}

export interface VoicesTable {
  id: string;
  name: string;
  sex: string;
  language_code: string;
  /** Text-to-speech provider and its own voice id that this entry maps to. */
  provider: string;
  provider_voice: string;
}

/**
 * The profile of a character (product.md §2 "Character form"): what a preset holds and what choosing it
 * copies into the user's own character. `photo` is a file name under /content/characters/ (a
 * preset's under /content/predefined-characters/).
 */
export interface CharacterProfile {
  name: string;
  sex: string;
  voice: string;
  language_id: string;
  description: string;
  greeting: string;
  appearance: string;
  photo: string;
}

export interface PresetCharactersTable extends CharacterProfile {
  id: string;
  sort_order: number;
}

export interface CharactersTable extends CharacterProfile {
  id: string;
  user_id: string;
  preset_id: string | null;
  created_at: number;
  /** The Character Card `data` (JSON) the character was imported from; '' if none. */
  card: Generated<string>;
  /** The character's lorebook (`character_book` JSON, lorebook.ts); null if none. */
  lorebook: string | null;
  /** The card's alternate greetings (JSON array of strings), swipes of the greeting. */
  alternate_greetings: Generated<string>;
  /** The longest reply, tokens (16 to 4096); null: the model connection's. */
  max_tokens: number | null;
  /** The reply's sampling temperature (0 to 2); null: the model connection's. */
  temperature: number | null;
  /** The author's note placed `authors_note_depth` messages from the end of the prompt; '' if none. */
  authors_note: Generated<string>;
  /** The author's note's depth, messages from the end (0 to 100); null: the default depth (4). */
  authors_note_depth: number | null;
}

/** The tables above, as the `Database` interface of server/db/schema.ts includes them. */
export interface CharactersTables {
  languages: LanguagesTable;
  voices: VoicesTable;
  preset_characters: PresetCharactersTable;
  characters: CharactersTable;
}
