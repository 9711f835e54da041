import DOMPurify from "dompurify";

/**
 * Makes a plan's `pricingDescription` (server HTML, spec 3) safe to insert: DOMPurify drops
 * scripts, event handler attributes and `javascript:` URLs. Links, forms and inline styles
 * are dropped too (their text is kept) because the whole card is already a link.
 */
export function sanitizeDescriptionHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["a", "form", "input", "button", "textarea", "select", "style"],
    FORBID_ATTR: ["style"],
  });
}

/**
 * An address a card may link to: http(s) URLs and in-app paths; anything else (for example
 * `javascript:`) gives null.
 */
export function safeLinkHref(url: string): string | null {
  const value = url.trim();
  if (value.startsWith("/") && !value.startsWith("//")) return value;
  try {
    const parsed = new URL(value);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.toString() : null;
  } catch {
    return null;
  }
}
