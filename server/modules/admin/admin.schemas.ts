// Request shapes of the admin console's routes (plans, presets, plan images, user search, plan, limits, blocking), checked with zod.
import { z } from "zod";
import { RULES, SEX_INVALID, SEX_VALUES } from "../../../common/validation";
import { optionalUpload } from "../../http/uploads";
import { textField, uuidField } from "../../http/validate";

/**
 * Request shapes of the admin console's API; rules and sentences from
 * common/validation.ts, limits from the product.md §9.
 */

export const IdParams = z.object({ id: uuidField("the id") });
/** A whole number 0..1,000,000 (limits and counters); failures read "The chat limit must be ...". */
const count = z.coerce.number().int().min(0).max(1_000_000);
/** "0" or "1"; failures read "The photo flag must be one of '0', '1'." (parseInput's fallback). */
const flag = z.enum(["0", "1"]).transform((v) => v === "1");

export const PlanBody = z.object({
  name: textField(RULES.planName).optional(),
  /** Monthly price in dollars, e.g. "9.99". */
  price: textField(RULES.planPrice)
    .transform((v) => Math.round(Number(v) * 100))
    .optional(),
  description: textField(RULES.planDescription).optional(),
  url: textField(RULES.planUrl).optional(),
  stripePriceId: textField(RULES.stripePriceId).optional(),
  cl: count.optional(),
  vl: count.optional(),
  pl: flag.optional(),
  il: flag.optional(),
  messageLimit: count.optional(),
  quotaPeriod: z.enum(["day", "month"]).optional(),
  uncensored: flag.optional(),
});
export const PresetBody = z.object({
  name: textField(RULES.characterName).optional(),
  sex: z.enum(SEX_VALUES, SEX_INVALID).optional(),
  voice: textField(RULES.characterVoice).optional(),
  languageId: textField(RULES.characterLanguage).optional(),
  description: textField(RULES.backstory).optional(),
  greeting: textField(RULES.greeting).optional(),
  appearance: textField(RULES.appearance).optional(),
  photo: optionalUpload,
});
/** A plan's picture: a JPEG or PNG upload, re-encoded; the size is bounded by the multipart limit. */
export const PlanImageBody = z.object({
  image: optionalUpload.refine((bytes) => bytes !== undefined, "The image is required."),
});
export const SearchQuery = z.object({ q: z.string().max(200).default("") });
export const UserPlanBody = z.object({ plan: uuidField("the plan") });
export const LimitsBody = z.object({
  cl: count.optional(),
  vl: count.optional(),
  pl: flag.optional(),
  il: flag.optional(),
  chatLimit: count.optional(),
  extraMessages: count.optional(),
});
export const BlockBody = z.object({ blocked: flag });
