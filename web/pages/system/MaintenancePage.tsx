// The Under Work page (/maintenance, product.md §2 "Under Work") with a Home button.
import { useTranslation } from "react-i18next";
import { SystemCard } from "../../components/SystemCard";

/** `/maintenance` (product.md §2 "Under Work"): work is under way to make the experience better; a Home button. */
export function MaintenancePage() {
  const { t } = useTranslation("public");
  return (
    <SystemCard title={t("maintenance.title")} to="/" action={t("maintenance.action")}>
      <p>{t("maintenance.text")}</p>
    </SystemCard>
  );
}
