// Sanitizing a plan's description HTML with DOMPurify (product.md §3), loaded only when /pricing needs it.
import type { Config } from "dompurify";

/**
 * DOMPurify's settings for a plan's `pricingDescription` (server HTML, product.md §3): scripts, event
 * handler attributes and `javascript:` URLs are dropped; links, forms and inline styles too (their
 * text is kept) because the whole card is already a link.
 */
export const DESCRIPTION_PURIFY_CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ["a", "form", "input", "button", "textarea", "select", "style"],
  FORBID_ATTR: ["style"],
};

/** Makes description HTML safe to insert (see `loadDescriptionSanitizer`). */
export type Sanitizer = (html: string) => string;

let loaded: Sanitizer | null = null;
let loading: Promise<Sanitizer> | null = null;

/**
 * Loads DOMPurify (its own chunk, fetched only when an admin-edited plan description must be
 * shown for /pricing) and resolves to a function that sanitises description HTML
 * with `DESCRIPTION_PURIFY_CONFIG`. Where DOMPurify cannot work (no DOM, e.g. Node) the function
 * returns "" rather than the HTML unchanged. Rejects when the chunk fails to load (a later call
 * tries again).
 */
export function loadDescriptionSanitizer(): Promise<Sanitizer> {
  loading ??= import("dompurify").then(
    ({ default: DOMPurify }) => {
      loaded = (html) =>
        DOMPurify.isSupported ? String(DOMPurify.sanitize(html, DESCRIPTION_PURIFY_CONFIG)) : "";
      return loaded;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The sanitiser once `loadDescriptionSanitizer` has resolved, else null. */
export function loadedDescriptionSanitizer(): Sanitizer | null {
  return loaded;
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
