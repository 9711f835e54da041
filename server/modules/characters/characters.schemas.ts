import { z } from "zod";
import { FILL_REQUIRED_FIELDS, RULES, SEX_INVALID, SEX_VALUES } from "../../../common/validation";
import { optionalUpload } from "../../http/uploads";
import { textField, uuidField } from "../../http/validate";

/**
 * Request schemas of the characters routes (spec 7 "Characters and profile"); rules and sentences
 * from common/validation.ts (issue 16).
 */
export const UserIdQuery = z.object({ id: z.string().max(100).optional() });
export const IdQuery = z.object({ id: uuidField("the character id") });
/** Ours: the voice preview names a voice. */
export const VoiceQuery = z.object({
  v: z.string().trim().min(1, "The voice is required.").max(100, "The voice must be at most 100 characters."),
});
/**
 * spec 5: required fields and lengths of the character form, the same rules as the browser's: a
 * blank required field answers the spec 8 popup text 'Please fill in all required fields!', a
 * too long one "The backstory must be at most 2000 characters.".
 */
export const CharacterBody = z.object({
  name: textField(RULES.characterName),
  sex: z.enum(SEX_VALUES, {
    error: (issue) => (issue.input === undefined || issue.input === "" ? FILL_REQUIRED_FIELDS : SEX_INVALID),
  }),
  voice: textField(RULES.characterVoice),
  language: textField(RULES.characterLanguage),
  description: textField(RULES.backstory),
  greeting: textField(RULES.greeting).default(""),
  appearance: textField(RULES.appearance).default(""),
  photo: optionalUpload,
  old_photo: z.string().max(200).optional(),
  /**
   * Issue 17: the lorebook as `character_book` JSON, a text field or a file part (the browser
   * sends a file: multipart text fields are capped at 64 KB); checked by the service.
   */
  lorebook: z
    .union([z.string(), z.instanceof(Buffer)], { error: "The lorebook must be JSON text." })
    .optional()
    .transform((v) => (typeof v === "string" || v === undefined ? v : v.toString("utf8"))),
});
export const UpdateBody = CharacterBody.extend({ id: uuidField("the character id") });
export const CardBody = z.object({
  card: z.instanceof(Buffer, { message: "The character card is required (a PNG or JSON file)." }),
});
export const PresetBody = z.object({ id: uuidField("the preset character id") });
