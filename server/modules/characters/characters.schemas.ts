// Request schemas of the characters routes (zod, product.md §5 form rules), beside characters.routes.ts.
import { z } from "zod";
import { GREETING_MAX_LENGTH, REPLY_SWIPES_MAX } from "../../../common/constants";
import {
  AUTHORS_NOTE_DEPTH_MAX,
  AUTHORS_NOTE_MAX_LENGTH,
  MAX_TOKENS_MAX,
  MAX_TOKENS_MIN,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
} from "../../../common/generation";
import { FILL_REQUIRED_FIELDS, RULES, SEX_INVALID, SEX_VALUES } from "../../../common/validation";
import { msg, zodText } from "../../i18n/messages";

/** The sentence for alternate greetings that are not a list of texts. */
const ALTERNATE_GREETINGS_INVALID = zodText(msg("characters.alternateGreetingsMustJsonArray"));

import { optionalUpload } from "../../http/uploads";
import { textField, uuidField } from "../../http/validate";

const MAX_TOKENS_SENTENCE = zodText(msg("characters.replyLengthMustWholeNumber"));
const TEMPERATURE_SENTENCE = zodText(msg("models.temperatureMustNumberFrom0"));
const AUTHORS_NOTE_SENTENCE = zodText(msg("characters.authorsNoteTooLong"));
const DEPTH_SENTENCE = zodText(msg("characters.authorsNoteDepthInvalid"));

/**
 * An optional number of the form (common/generation.ts bounds) checked by `rule`: absent gives
 * undefined (the stored value is kept), '' or null gives null (the model connection's default).
 */
const optionalNumber = (rule: z.ZodNumber) =>
  z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? null : Number(v)) : v),
    rule.nullable().optional(),
  );

/**
 * Request schemas of the characters routes (product.md §7 "Characters and profile"); rules and sentences
 * from common/validation.ts.
 */
export const UserIdQuery = z.object({ id: z.string().max(100).optional().describe("own user id") });
export const IdQuery = z.object({ id: uuidField(msg("field.characterId")).describe("character") });
/** `?id` of a group (its refusal names "the character id", as it always did). */
export const GroupIdQuery = z.object({ id: uuidField(msg("field.characterId")).describe("group") });
/** Ours: the voice preview names a voice. */
export const VoiceQuery = z.object({
  v: z
    .string()
    .trim()
    .min(1, zodText(msg("characters.voiceRequired")))
    .max(100, zodText(msg("validation.voiceMustMost100Characters")))
    .describe("voice name"),
});
/** Alternate greetings as sent: a JSON array text, or an array (a JSON body). */
const AlternateGreetings = z
  .union([z.string(), z.array(z.unknown())], { error: ALTERNATE_GREETINGS_INVALID })
  .transform((value, ctx) => {
    let list: unknown = value;
    if (typeof value === "string") {
      try {
        list = value.trim() === "" ? [] : JSON.parse(value);
      } catch {
        list = undefined;
      }
    }
    if (!Array.isArray(list) || list.some((g) => typeof g !== "string")) {
      ctx.addIssue({ code: "custom", message: ALTERNATE_GREETINGS_INVALID });
      return z.NEVER;
    }
    const greetings = (list as string[]).map((g) => g.trim()).filter(Boolean);
    if (greetings.length > REPLY_SWIPES_MAX - 1) {
      ctx.addIssue({
        code: "custom",
        message: zodText(msg("characters.characterMostAlternateGreetings", { n: REPLY_SWIPES_MAX - 1 })),
      });
      return z.NEVER;
    }
    if (greetings.some((g) => g.length > GREETING_MAX_LENGTH)) {
      ctx.addIssue({
        code: "custom",
        message: zodText(msg("characters.eachAlternateGreetingMustMost", { GREETING_MAX_LENGTH })),
      });
      return z.NEVER;
    }
    return greetings;
  });

/**
 * product.md §5: required fields and lengths of the character form, the same rules as the browser's: a
 * blank required field answers the product.md §8 popup text 'Please fill in all required fields!', a
 * too long one "The backstory must be at most 2000 characters.".
 */
export const CharacterBody = z.object({
  name: textField(RULES.characterName),
  sex: z.enum(SEX_VALUES, {
    error: (issue) =>
      zodText(issue.input === undefined || issue.input === "" ? FILL_REQUIRED_FIELDS : SEX_INVALID),
  }),
  voice: textField(RULES.characterVoice),
  language: textField(RULES.characterLanguage),
  description: textField(RULES.backstory),
  greeting: textField(RULES.greeting).default(""),
  appearance: textField(RULES.appearance).default(""),
  photo: optionalUpload,
  old_photo: z.string().max(200).optional(),
  /**
   * The lorebook as `character_book` JSON, a text field or a file part (the browser
   * sends a file: multipart text fields are capped at 64 KB); checked by the service.
   */
  lorebook: z
    .union([z.string(), z.instanceof(Buffer)], { error: zodText(msg("characters.lorebookMustJsonText")) })
    .optional()
    .transform((v) => (typeof v === "string" || v === undefined ? v : v.toString("utf8"))),
  /**
   * The card's alternate greetings (swipes of the first message), a JSON array of
   * strings or an array; at most REPLY_SWIPES_MAX - 1, each within the greeting's rule.
   * Absent: the stored ones are kept.
   */
  alternate_greetings: AlternateGreetings.optional(),
  /**
   * The character's own generation settings (product.md §2 "Character form", Generation), each
   * optional: absent keeps the stored value, '' clears it (the model connection's default).
   */
  max_tokens: optionalNumber(
    z
      .number({ error: MAX_TOKENS_SENTENCE })
      .int(MAX_TOKENS_SENTENCE)
      .min(MAX_TOKENS_MIN, MAX_TOKENS_SENTENCE)
      .max(MAX_TOKENS_MAX, MAX_TOKENS_SENTENCE),
  ),
  temperature: optionalNumber(
    z
      .number({ error: TEMPERATURE_SENTENCE })
      .min(TEMPERATURE_MIN, TEMPERATURE_SENTENCE)
      .max(TEMPERATURE_MAX, TEMPERATURE_SENTENCE),
  ),
  authors_note: z
    .string({ error: AUTHORS_NOTE_SENTENCE })
    .trim()
    .max(AUTHORS_NOTE_MAX_LENGTH, AUTHORS_NOTE_SENTENCE)
    .optional(),
  authors_note_depth: optionalNumber(
    z
      .number({ error: DEPTH_SENTENCE })
      .int(DEPTH_SENTENCE)
      .min(0, DEPTH_SENTENCE)
      .max(AUTHORS_NOTE_DEPTH_MAX, DEPTH_SENTENCE),
  ),
});
export const UpdateBody = CharacterBody.extend({ id: uuidField(msg("field.characterId")) });
export const CardBody = z.object({
  card: z
    .instanceof(Buffer, { message: zodText(msg("characters.characterCardRequiredPngJson")) })
    .describe("Character Card PNG or JSON"),
});
export const PresetBody = z.object({
  id: uuidField(msg("characters.term.presetCharacterId")).describe("preset"),
});

/**
 * The documentation of a characters route in its schema (the OpenAPI document): the "Characters"
 * section of docs/api.md, what the route answers (the table's Answers cell) and where it comes from.
 */
export const characterDoc = (description: string, from = "§7") => ({
  tags: ["Characters"],
  description,
  "x-from": from,
});
