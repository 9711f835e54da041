// The public header's full-screen loading overlay with a spinner (product.md §2).
import { useTranslation } from "react-i18next";

/**
 * The public header's loading overlay (product.md §2): a full-screen veil with a spinner while
 * `active`; it fades out and stops catching clicks when done.
 */
export function LoadingOverlay({ active }: { active: boolean }) {
  const { t } = useTranslation("public");
  return (
    <div
      className={active ? "loading-overlay loading-overlay--active" : "loading-overlay"}
      role="status"
      aria-live="polite"
      aria-label={active ? t("layout.loading") : undefined}
      aria-hidden={!active}
    >
      {active && <span className="spinner spinner--medium" aria-hidden="true" />}
    </div>
  );
}
