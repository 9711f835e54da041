import { z } from "zod";
import { APPEARANCE_MAX_LENGTH, BACKSTORY_MAX_LENGTH, GREETING_MAX_LENGTH } from "../../../common/constants";
import { optionalUpload } from "../../http/uploads";

/** Request schemas of the characters routes (spec 7 "Characters and profile"). */
export const UserIdQuery = z.object({ id: z.string().max(100).optional() });
export const IdQuery = z.object({ id: z.uuid("must be an id") });
export const VoiceQuery = z.object({ v: z.string().trim().min(1, "is required").max(100) });
/** spec 5: required fields and lengths of the character form; the same rules as the browser's. */
export const CharacterBody = z.object({
  name: z.string().trim().min(1, "is required").max(50, "must be at most 50 characters"),
  sex: z.enum(["0", "1"], "must be '0' (female) or '1' (male)"),
  voice: z.string().trim().min(1, "is required").max(100),
  language: z.string().trim().min(1, "is required").max(100),
  description: z
    .string()
    .trim()
    .min(1, "is required")
    .max(BACKSTORY_MAX_LENGTH, `must be at most ${BACKSTORY_MAX_LENGTH} characters`),
  greeting: z
    .string()
    .trim()
    .max(GREETING_MAX_LENGTH, `must be at most ${GREETING_MAX_LENGTH} characters`)
    .default(""),
  appearance: z
    .string()
    .trim()
    .max(APPEARANCE_MAX_LENGTH, `must be at most ${APPEARANCE_MAX_LENGTH} characters`)
    .default(""),
  photo: optionalUpload,
  old_photo: z.string().max(200).optional(),
});
export const UpdateBody = CharacterBody.extend({ id: z.uuid("must be an id") });
export const CardBody = z.object({
  card: z.instanceof(Buffer, { message: "is required (a PNG or JSON file)" }),
});
export const PresetBody = z.object({ id: z.uuid("must be a preset character id") });
