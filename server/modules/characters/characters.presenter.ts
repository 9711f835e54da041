// The characters module's answers (product.md §3): list items, presets, groups and a character's detail.
import type {
  CharacterDetail,
  CharacterGroup,
  CharacterListItem,
  PresetCharacter,
} from "../../../common/api";
import type { Character, PresetCharacterRow } from "../../db/schema";
import { alternateGreetings } from "../conversation/chats.service";
import { storedLorebook, toCharacterBook } from "../prompt/lorebook";
import { fillPlaceholders } from "../prompt/prompt";
import { presentGeneration } from "./generation";

/** product.md §3 "Character (list)": photo is a file name under /content/characters/. */
export function presentCharacterListItem(c: Character): CharacterListItem {
  return {
    characterUUID: c.id,
    characterName: c.name,
    characterPhoto: c.photo,
    characterDescription: c.description,
    characterGreeting: c.greeting,
  };
}

/**
 * product.md §3 "Character (list)" as the chat's character list shows it: the greeting with its
 * placeholders filled in for `userName`, as the chat itself shows it.
 */
export function presentChatListItem(c: Character, userName: string): CharacterListItem {
  return {
    ...presentCharacterListItem(c),
    characterGreeting: fillPlaceholders(c.greeting, c.name, userName),
  };
}

/** product.md §3 "Preset character": photo is a file name under /content/predefined-characters/. */
export function presentPreset(p: PresetCharacterRow): PresetCharacter {
  return {
    characterPreDefinedUUID: p.id,
    characterName: p.name,
    characterPhoto: p.photo,
    characterSex: p.sex === "1" ? "1" : "0",
    characterDescription: p.description,
  };
}

/** product.md §3 "Group": groupUUID and members with memberName and memberPhoto. */
export function presentGroup(g: {
  id: string;
  members: Array<{ id: string; name: string; photo: string }>;
}): CharacterGroup {
  return {
    groupUUID: g.id,
    members: g.members.map((m) => ({ memberUUID: m.id, memberName: m.name, memberPhoto: m.photo })),
  };
}

/**
 * product.md §3 "Character (detail)", plus ours: `characterLorebook`, the lorebook as a
 * Character Card V2 `character_book` object, or null; `characterAlternateGreetings`; the
 * generation settings `characterMaxTokens`, `characterTemperature`, `characterAuthorsNote` and
 * `characterAuthorsNoteDepth`.
 */
export function presentCharacterDetail(c: Character): CharacterDetail {
  const lorebook = storedLorebook(c.lorebook);
  return {
    characterUUID: c.id,
    characterName: c.name,
    characterSex: c.sex === "1" ? "1" : "0",
    characterVoice: c.voice,
    languageUUID: c.language_id,
    characterDescription: c.description,
    characterGreeting: c.greeting,
    characterAppearance: c.appearance,
    characterPhoto: c.photo,
    characterLorebook: lorebook ? toCharacterBook(lorebook) : null,
    /** The alternate greetings (swipes of the first message), [] when none. */
    characterAlternateGreetings: alternateGreetings(c.alternate_greetings),
    /** The Generation section (reply length, temperature, author's note and depth), null where unset. */
    ...presentGeneration(c),
  };
}
