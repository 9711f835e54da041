import { z } from "zod";
import { APPEARANCE_MAX_LENGTH, BACKSTORY_MAX_LENGTH, GREETING_MAX_LENGTH } from "../../../common/constants";
import { optionalUpload } from "../../http/uploads";

/** Request shapes of the admin console's API (issue 9); limits from the spec's section 9. */

export const IdParams = z.object({ id: z.uuid("must be an id") });
const count = z.coerce.number().int().min(0).max(1_000_000);
const flag = z.enum(["0", "1"]).transform((v) => v === "1");
const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

export const PlanBody = z.object({
  name: text(100).min(1, "is required").optional(),
  /** Monthly price in dollars, e.g. "9.99". */
  price: z
    .string()
    .trim()
    .regex(/^\d{1,5}(\.\d{1,2})?$/, "must be a price in dollars, e.g. 9.99")
    .transform((v) => Math.round(Number(v) * 100))
    .optional(),
  description: text(5000).optional(),
  url: text(500).optional(),
  stripePriceId: z
    .string()
    .trim()
    .regex(/^(price_[A-Za-z0-9_]+)?$/, "must be a Stripe price id (price_...) or empty")
    .optional(),
  cl: count.optional(),
  vl: count.optional(),
  pl: flag.optional(),
  il: flag.optional(),
  messageLimit: count.optional(),
  quotaPeriod: z.enum(["day", "month"]).optional(),
  uncensored: flag.optional(),
});
export const PresetBody = z.object({
  name: text(50).min(1, "is required").optional(),
  sex: z.enum(["0", "1"], "must be '0' (female) or '1' (male)").optional(),
  voice: text(100).min(1, "is required").optional(),
  languageId: text(100).min(1, "is required").optional(),
  description: text(BACKSTORY_MAX_LENGTH).min(1, "is required").optional(),
  greeting: text(GREETING_MAX_LENGTH).optional(),
  appearance: text(APPEARANCE_MAX_LENGTH).optional(),
  photo: optionalUpload,
});
/** A plan's picture (issue 16): a JPEG or PNG upload, re-encoded; the size is bounded by the multipart limit. */
export const PlanImageBody = z.object({
  image: optionalUpload.refine((bytes) => bytes !== undefined, "is required"),
});
export const SearchQuery = z.object({ q: z.string().max(200).default("") });
export const UserPlanBody = z.object({ plan: z.uuid("must be a plan id") });
export const LimitsBody = z.object({
  cl: count.optional(),
  vl: count.optional(),
  pl: flag.optional(),
  il: flag.optional(),
  chatLimit: count.optional(),
  extraMessages: count.optional(),
});
export const BlockBody = z.object({ blocked: flag });
