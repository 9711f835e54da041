// The FAQ's groups and questions as catalogue keys, with the numbers they name (product.md §9), in the current language.
import {
  ADDON_PRICE_CENTS,
  FREE_DAILY_MESSAGES,
  GROUP_MAX_MEMBERS,
  PRODUCT_NAME,
} from "../../../common/constants";
import { formatPrice } from "../../i18n";

/** One question of the FAQ and its answer (plain text paragraphs). */
export interface FaqEntry {
  question: string;
  answer: string[];
}

/** A titled group of questions. */
export interface FaqGroup {
  title: string;
  entries: FaqEntry[];
}

/**
 * The FAQ's groups and questions as catalogue keys (namespace "faq", loaded with the page:
 * `<group>.title`, `<group>.<entry>.q` and `.a`): product.md §2 "FAQ", 21 questions in the groups general,
 * Premium Plus, technical and payment, security and privacy, contact. The facts are those of product.md §9.
 */
export const FAQ_KEYS: ReadonlyArray<{ group: string; entries: readonly string[] }> = [
  { group: "general", entries: ["what", "create", "free", "limit", "group", "voice"] },
  { group: "premium", entries: ["adds", "images", "upload", "upgrade"] },
  { group: "payment", entries: ["cost", "methods", "refund", "cancel", "devices"] },
  { group: "privacy", entries: ["chats", "owner", "session", "forgot"] },
  { group: "contact", entries: ["how", "follow"] },
];

/** The numbers an entry's text names (`{{n}}`, `{{price}}`), by `<group>/<entry>`. */
function valuesOf(key: string): Record<string, string | number> {
  if (key === "general/free") return { n: FREE_DAILY_MESSAGES };
  if (key === "general/group") return { n: GROUP_MAX_MEMBERS };
  if (key === "general/limit") return { price: formatPrice(ADDON_PRICE_CENTS / 100, "USD") };
  return {};
}

/**
 * The FAQ in the current language: `t` is the "faq" namespace's translate function
 * (`useTranslation("faq").t`). Each answer is one paragraph.
 */
export function faqGroups(t: (key: string, values?: Record<string, string | number>) => string): FaqGroup[] {
  return FAQ_KEYS.map(({ group, entries }) => ({
    title: t(`${group}.title`),
    entries: entries.map((entry) => {
      const values = { product: PRODUCT_NAME, ...valuesOf(`${group}/${entry}`) };
      return {
        question: t(`${group}.${entry}.q`, values),
        answer: [t(`${group}.${entry}.a`, values)],
      };
    }),
  }));
}
