// The characters' wire shapes (product.md §3): list items, presets, a character's detail with its lorebook, groups, languages and voices.
import { z } from "zod";
import { Envelope } from "./envelope";

/**
 * Declared once here and re-exported by common/api.ts: the server's characters presenter
 * (server/modules/characters/characters.presenter.ts) returns them and the SPA's web/api reads them.
 */

/** A sex as the spec sends it: '0' female, '1' male. */
const sex = z.enum(["0", "1"]).describe("'0' female, '1' male.");

/** product.md §3: a character in lists (`characters/list`, `characters/list/chat`). */
export const CharacterListItem = z
  .object({
    characterUUID: z.string(),
    characterName: z.string(),
    characterPhoto: z.string(),
    characterDescription: z.string(),
    characterGreeting: z.string(),
  })
  .meta({ id: "CharacterListItem", description: "A character in lists." });
export type CharacterListItem = z.infer<typeof CharacterListItem>;

/**
 * One lorebook entry, as the Character Card V2 spec's `character_book.entries[]`
 * (server/modules/prompt/lorebook.ts has the rules that use it).
 */
export const CharacterBookEntry = z
  .object({
    id: z.number().optional(),
    keys: z.array(z.string()),
    secondary_keys: z.array(z.string()),
    content: z.string(),
    enabled: z.boolean(),
    constant: z.boolean(),
    selective: z.boolean(),
    case_sensitive: z.boolean(),
    insertion_order: z.number(),
    position: z.enum(["before_char", "after_char"]),
    name: z.string().optional(),
    comment: z.string().optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    id: "CharacterBookEntry",
    description: "One lorebook entry, as the Character Card V2 spec's `character_book.entries[]`.",
  });
export type CharacterBookEntry = z.infer<typeof CharacterBookEntry>;

/** A character's lorebook, as the Character Card V2 spec's `character_book`. */
export const CharacterBook = z
  .object({
    name: z.string().optional(),
    scan_depth: z.number().optional(),
    token_budget: z.number().optional(),
    recursive_scanning: z.boolean().optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
    entries: z.array(CharacterBookEntry),
  })
  .meta({
    id: "CharacterBook",
    description: "A lorebook, as the Character Card V2 spec's `character_book`.",
  });
export type CharacterBook = z.infer<typeof CharacterBook>;

/** product.md §3: a preset character (`characters/selection`). characterSex '0' female, '1' male. */
export const PresetCharacter = z
  .object({
    characterPreDefinedUUID: z.string(),
    characterName: z.string(),
    characterPhoto: z.string(),
    characterSex: sex,
    characterDescription: z.string(),
  })
  .meta({ id: "PresetCharacter", description: "A preset character (characters/selection)." });
export type PresetCharacter = z.infer<typeof PresetCharacter>;

/**
 * product.md §3 "Character (detail)" (`GET characters/?id=`), as the server always sends it:
 * characterSex '0' female, '1' male; characterPhoto a file name under /content/characters/;
 * languageUUID one of `characters/languages`. Ours besides: the lorebook, the alternate greetings
 * and the Generation section (null where the model connection's default applies).
 */
export const CharacterDetail = z
  .object({
    characterUUID: z.string(),
    characterName: z.string(),
    characterSex: sex,
    characterVoice: z.string(),
    languageUUID: z.string().describe("One of characters/languages."),
    characterDescription: z.string(),
    characterGreeting: z.string(),
    /** The spec calls it optional; this server always sends it ("" when none). */
    characterAppearance: z.string().describe('Always sent ("" when none).'),
    characterPhoto: z.string().describe("A file name under /content/characters/."),
    /** Ours: the lorebook as a Character Card V2 `character_book`, or null. */
    characterLorebook: CharacterBook.nullable().describe(
      "The lorebook as a Character Card V2 `character_book`, or null.",
    ),
    /** Ours: the alternate greetings (swipes of the first message), [] when none. */
    characterAlternateGreetings: z
      .array(z.string())
      .describe("The alternate greetings (swipes of the first message), [] when none."),
    /** Ours: the longest reply in tokens, or null for the model connection's. */
    characterMaxTokens: z
      .number()
      .nullable()
      .describe("The longest reply in tokens, or null for the model connection's."),
    /** Ours: the reply's temperature (0 to 2), or null for the model connection's. */
    characterTemperature: z
      .number()
      .nullable()
      .describe("The reply's temperature (0 to 2), or null for the model connection's."),
    /** Ours: the author's note ("" when none). */
    characterAuthorsNote: z.string().describe('The author\'s note ("" when none).'),
    /** Ours: the author's note's depth in messages from the end, or null for the default (4). */
    characterAuthorsNoteDepth: z
      .number()
      .nullable()
      .describe("The author's note's depth in messages from the end, or null for the default (4)."),
  })
  .meta({ id: "CharacterDetail", description: "One of the user's characters, as the form edits it." });
export type CharacterDetail = z.infer<typeof CharacterDetail>;

/** product.md §3 "Group": a member of a group chat; memberPhoto is a file name under /content/characters/. */
export const CharacterGroupMember = z
  .object({
    /** Ours: the member's characterUUID. */
    memberUUID: z.string().describe("The member's characterUUID."),
    memberName: z.string(),
    memberPhoto: z.string().describe("A file name under /content/characters/."),
  })
  .meta({ id: "CharacterGroupMember", description: "A member of a group chat." });
export type CharacterGroupMember = z.infer<typeof CharacterGroupMember>;

/** product.md §3 "Group": a group chat with its members (`characters/group/list`). */
export const CharacterGroup = z
  .object({
    groupUUID: z.string(),
    members: z.array(CharacterGroupMember),
  })
  .meta({ id: "CharacterGroup", description: "A group chat with its members." });
export type CharacterGroup = z.infer<typeof CharacterGroup>;

/** product.md §3: a language of the character form (`characters/languages`). */
export const Language = z
  .object({
    languageUUID: z.string(),
    languageName: z.string(),
  })
  .meta({ id: "Language", description: "A language of the character form (characters/languages)." });
export type Language = z.infer<typeof Language>;

/** product.md §3: a voice of the character form (`characters/voices`). voiceSex '0' female, '1' male. */
export const Voice = z
  .object({
    voiceName: z.string(),
    voiceSex: z.string().describe("'0' female, '1' male."),
    languageCode: z.string(),
  })
  .meta({ id: "Voice", description: "A voice of the character form (characters/voices)." });
export type Voice = z.infer<typeof Voice>;

/** product.md §7: the answer of `characters/list/chat`, the chat's characters beside the envelope (not under `data`). */
export const ChatCharactersReply = Envelope.extend({
  characters: z.array(CharacterListItem).describe("The user's characters, greetings filled in for the user."),
}).meta({ id: "ChatCharactersReply", description: "The chat's character list, under `characters`." });
export type ChatCharactersReply = z.infer<typeof ChatCharactersReply>;

/** product.md §7: the answer of `characters/languages`, the languages beside the envelope. */
export const LanguagesReply = Envelope.extend({ languages: z.array(Language) }).meta({
  id: "LanguagesReply",
  description: "The languages of the character form, under `languages`.",
});
export type LanguagesReply = z.infer<typeof LanguagesReply>;

/** product.md §7: the answer of `characters/voices` (and `characters/voice`), the voices beside the envelope. */
export const VoicesReply = Envelope.extend({ voices: z.array(Voice) }).meta({
  id: "VoicesReply",
  description: "The voices of the character form, under `voices`.",
});
export type VoicesReply = z.infer<typeof VoicesReply>;

/** Ours: the answer of `characters/voice/preview/`, the address of a short spoken sample of the voice. */
export const VoicePreviewReply = Envelope.extend({
  audioUrl: z.string().describe("The address of a short spoken sample of the voice."),
}).meta({ id: "VoicePreviewReply", description: "A short spoken sample of a voice, under `audioUrl`." });
export type VoicePreviewReply = z.infer<typeof VoicePreviewReply>;
