// The Access Denied page (/forbidden, product.md §2): rotating hints and a Check Pricing button.
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { RotatingText } from "../../components/RotatingText";
import { SystemCard } from "../../components/SystemCard";

/** product.md §2 "Access Denied": the catalogue keys (namespace "public") of the rotating hints, in order. */
export const FORBIDDEN_HINTS = [
  "forbidden.hints.pricing",
  "forbidden.hints.retry",
  "forbidden.hints.admin",
] as const;

/** `/forbidden` (product.md §2 "Access Denied"): rotating hints and a Check Pricing button to /pricing. */
export function ForbiddenPage() {
  const { t } = useTranslation("public");
  const hints = useMemo(() => FORBIDDEN_HINTS.map((key) => t(key)), [t]);
  return (
    <SystemCard code="403" title={t("forbidden.title")} to="/pricing" action={t("forbidden.action")}>
      <p className="system-card__hint">
        <RotatingText phrases={hints} />
      </p>
    </SystemCard>
  );
}
