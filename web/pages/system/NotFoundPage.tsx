// The 404 page of any unknown path, with a link home.
import { useTranslation } from "react-i18next";
import { SystemCard } from "../../components/SystemCard";

/** Any unknown path: a simple 404 with a link home. */
export function NotFoundPage() {
  const { t } = useTranslation("public");
  return (
    <SystemCard code="404" title={t("notFound.title")} to="/" action={t("notFound.action")}>
      <p>{t("notFound.text")}</p>
    </SystemCard>
  );
}
