// The seeded plans' descriptions as catalogue keys, so a description the admin has not changed shows translated.
import type { TFunction } from "i18next";

/**
 * The keys (namespace "public") of the seeded plans' descriptions. Each English text is
 * exactly the description HTML the database is seeded with (server/db/seed-data.ts `SEED_PLANS`).
 */
export const SEEDED_PLAN_DESCRIPTIONS = [
  "pricing.seeded.free",
  "pricing.seeded.basic",
  "pricing.seeded.premium",
  "pricing.seeded.premiumPlus",
] as const;

/**
 * The translated description HTML of a seeded plan: the catalogue text of the current
 * language of `t` when `stored` is exactly a seeded plan's English description (the admin has not
 * changed it), else null: `stored` is then admin-edited data, shown as written but sanitised
 * (web/pages/pricing/components/PlanDescription.tsx). Catalogue texts are ours, hence trusted.
 */
export function seededPlanDescription(stored: string, t: TFunction<"public">): string | null {
  const key = SEEDED_PLAN_DESCRIPTIONS.find((name) => stored === t(name, { lng: "en" }));
  return key === undefined ? null : t(key);
}
