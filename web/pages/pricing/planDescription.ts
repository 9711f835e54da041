import type { TFunction } from "i18next";

/**
 * The keys (namespace "public") of the seeded plans' descriptions (issue 18). Each English text is
 * exactly the description HTML the database is seeded with (server/db/seed-data.ts `SEED_PLANS`).
 */
export const SEEDED_PLAN_DESCRIPTIONS = [
  "pricing.seeded.free",
  "pricing.seeded.basic",
  "pricing.seeded.premium",
  "pricing.seeded.premiumPlus",
] as const;

/**
 * The description HTML to show for a plan whose stored description is `stored` (issue 18): the
 * translation in the current language of `t` when `stored` is exactly a seeded plan's English
 * description (the admin has not changed it), else `stored` as it is (plans are admin-edited
 * data, shown as written). The caller sanitises the result as any description (DOMPurify).
 */
export function planDescriptionHtml(stored: string, t: TFunction<"public">): string {
  const key = SEEDED_PLAN_DESCRIPTIONS.find((name) => stored === t(name, { lng: "en" }));
  return key === undefined ? stored : t(key);
}
