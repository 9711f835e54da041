// A plan's description HTML (product.md §2 "Pricing", §3): seeded ones translated, admin-edited ones sanitised first.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { loadDescriptionSanitizer, loadedDescriptionSanitizer, type Sanitizer } from "../../../lib/sanitize";
import { seededPlanDescription } from "../planDescription";

/**
 * `html` sanitised with DOMPurify, or null while DOMPurify's chunk loads (or when it failed to
 * load) and when `html` is null (nothing to sanitise: DOMPurify is then not fetched).
 */
export function useSanitizedHtml(html: string | null): string | null {
  const [sanitize, setSanitize] = useState<Sanitizer | null>(loadedDescriptionSanitizer);
  useEffect(() => {
    if (html === null || sanitize !== null) return;
    let live = true;
    loadDescriptionSanitizer().then(
      (loaded) => {
        if (live) setSanitize(() => loaded);
      },
      // The chunk did not load: the description stays empty (never shown unsanitised).
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [html, sanitize]);
  return html === null || sanitize === null ? null : sanitize(html);
}

/**
 * A plan's description (product.md §2 "Pricing", product.md §3: HTML). A seeded description the admin has not
 * changed is shown translated from our catalogue (trusted). Any other (admin-edited) is
 * shown only once sanitised with DOMPurify, which is loaded for it on demand (/pricing
 * does not download DOMPurify for the seeded plans); until then the description is empty.
 */
export function PlanDescription({ stored }: { stored: string }) {
  const { t } = useTranslation("public");
  const seeded = seededPlanDescription(stored, t);
  const sanitized = useSanitizedHtml(seeded === null ? stored : null);
  return (
    <div
      className="pricing-card__description"
      // The only raw HTML in the app: our catalogue's text, or the stored HTML after DOMPurify.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: catalogue text or sanitized (product.md §3: the description is HTML)
      dangerouslySetInnerHTML={{ __html: seeded ?? sanitized ?? "" }}
    />
  );
}
