// Request shapes of the admin console's routes (plans, presets, plan images, user search, plan, limits, blocking), checked with zod, and the answers they declare.
import { z } from "zod";
import {
  AdminAuditEntry,
  AdminContactMessage,
  AdminFreeSubscription,
  AdminMe,
  AdminPlan,
  AdminPreset,
  AdminUser,
  Envelope,
  envelopeOf,
} from "../../../common/api";
import { RULES, SEX_INVALID, SEX_VALUES } from "../../../common/validation";
import { answers } from "../../http/route-schemas";
import { optionalUpload } from "../../http/uploads";
import { textField, uuidField } from "../../http/validate";
import { msg, zodText } from "../../i18n/messages";

/**
 * Request shapes of the admin console's API; rules and sentences from
 * common/validation.ts, limits from the product.md §9.
 */

export const IdParams = z.object({ id: uuidField(msg("field.id")) });
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
  sex: z.enum(SEX_VALUES, zodText(SEX_INVALID)).optional(),
  voice: textField(RULES.characterVoice).optional(),
  languageId: textField(RULES.characterLanguage).optional(),
  description: textField(RULES.backstory).optional(),
  greeting: textField(RULES.greeting).optional(),
  appearance: textField(RULES.appearance).optional(),
  photo: optionalUpload,
});
/** A plan's picture: a JPEG or PNG upload, re-encoded; the size is bounded by the multipart limit. */
export const PlanImageBody = z.object({
  image: optionalUpload
    .transform((bytes, context) => {
      if (bytes) return bytes;
      context.issues.push({ code: "custom", message: zodText(msg("admin.imageRequired")), input: bytes });
      return z.NEVER;
    })
    .describe("JPEG or PNG"),
});
export const SearchQuery = z.object({ q: z.string().max(200).default("").describe("search") });
export const UserPlanBody = z.object({ plan: uuidField(msg("field.plan")).describe("plan id") });
export const LimitsBody = z.object({
  cl: count.optional(),
  vl: count.optional(),
  pl: flag.optional(),
  il: flag.optional(),
  chatLimit: count.optional(),
  extraMessages: count.optional(),
});
export const BlockBody = z.object({ blocked: flag.describe("`0`/`1`") });

/**
 * The whole answers of the admin routes (given to `adminDoc`): the envelope with the console's
 * shapes of common/api/admin.ts under `data`; `done` for a change that answers only its sentence.
 */
export const AdminAnswer = {
  me: envelopeOf(AdminMe),
  plans: envelopeOf(AdminPlan.array()),
  plan: envelopeOf(AdminPlan),
  presets: envelopeOf(AdminPreset.array()),
  preset: envelopeOf(AdminPreset),
  users: envelopeOf(AdminUser.array()),
  contactMessages: envelopeOf(AdminContactMessage.array()),
  freeSubscriptions: envelopeOf(AdminFreeSubscription.array()),
  audit: envelopeOf(AdminAuditEntry.array()),
  done: Envelope,
};

/**
 * The documentation of an admin route for the OpenAPI document (docs/api.md "Admin"): every one is
 * ours; who may call it ("admin") is written by `adminScope`.
 * @param description what the route answers (docs/api.md's Answers cell, markdown kept).
 * @param answer the whole answer's schema (the envelope with its `data`), its `response` at 200.
 */
export function adminDoc<S extends z.ZodType>(description: string, answer: S) {
  return { tags: ["Admin"], description, "x-from": "ours", response: answers(answer) };
}
