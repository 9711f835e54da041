// A plan's name as the user reads it: the built-in free plan's name in the app's language.
import i18n from "../i18n";

/**
 * The built-in free plan's stored name (server/modules/plans/plans.repo.ts, FREE_PLAN_NAME): the
 * API answers it as it is, in English, whatever the language.
 */
const FREE_PLAN_NAME = "Free";

/**
 * A plan's name for display: the built-in free plan's in the app's language (common:plans.free,
 * "Gratis", "Kostenlos" …), any other name as the admin wrote it. Only the display changes:
 * requests and forms keep the stored name.
 */
export function planDisplayName(name: string): string {
  return name === FREE_PLAN_NAME ? i18n.t("common:plans.free") : name;
}
