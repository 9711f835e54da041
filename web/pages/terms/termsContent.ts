// The Terms of Service's effective date (product.md §9) and numbered sections in the current language.
import { PRODUCT_NAME } from "../../../common/constants";
import { formatDate } from "../../i18n";

/** product.md §2, 9: the terms are effective 08/01/2024 (1 August 2024). */
const TERMS_EFFECTIVE = new Date(2024, 7, 1);

/**
 * The effective date in the current language's numeric format: "08/01/2024" in English as the
 * spec writes it, "01.08.2024" in German.
 */
export function termsEffectiveDate(): string {
  return formatDate(TERMS_EFFECTIVE, { year: "numeric", month: "2-digit", day: "2-digit" });
}

/** One numbered section of the Terms of Service. */
export interface TermsSection {
  title: string;
  paragraphs: string[];
  /** Listed items after the paragraphs, if any. */
  items?: string[];
}

/**
 * The 11 sections of the Terms of Service as catalogue keys (namespace "terms", loaded with the
 * page: `<section>.title` and `.text`, list items `<section>.<item>`), in the order of
 * product.md §2: acceptance, service description, accounts, user-generated content, uncensored content,
 * content ownership, disclaimer, prohibited activities, termination, changes, contact.
 */
const TERMS_KEYS: ReadonlyArray<{ section: string; items?: readonly string[] }> = [
  { section: "acceptance" },
  { section: "service" },
  { section: "accounts" },
  { section: "content" },
  { section: "uncensored" },
  { section: "ownership" },
  { section: "disclaimer" },
  { section: "prohibited", items: ["illegal", "infringe", "harass"] },
  { section: "termination" },
  { section: "changes" },
  { section: "contact" },
];

/**
 * The terms in the current language: `t` is the "terms" namespace's translate function
 * (`useTranslation("terms").t`).
 */
export function termsSections(t: (key: string, values?: Record<string, string>) => string): TermsSection[] {
  const values = { product: PRODUCT_NAME };
  return TERMS_KEYS.map(({ section, items }) => ({
    title: t(`${section}.title`),
    paragraphs: [t(`${section}.text`, values)],
    items: items?.map((item) => t(`${section}.${item}`, values)),
  }));
}
