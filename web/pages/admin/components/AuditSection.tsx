import { useTranslation } from "react-i18next";
import { useAdminAudit } from "../hooks/useAdminAudit";

/** Every admin action, newest first. */
export function AuditSection() {
  const { t } = useTranslation("admin");
  const audit = useAdminAudit();
  if (audit.data === undefined) return <p className="muted">{t("audit.loading")}</p>;
  if (audit.data.length === 0) return <p className="muted">{t("audit.empty")}</p>;
  return (
    <table className="data-table" aria-label={t("audit.table")}>
      <thead>
        <tr>
          <th>{t("audit.time")}</th>
          <th>{t("audit.admin")}</th>
          <th>{t("audit.action")}</th>
          <th>{t("audit.target")}</th>
          <th>{t("audit.details")}</th>
        </tr>
      </thead>
      <tbody>
        {audit.data.map((a) => (
          <tr key={a.id}>
            <td data-label={t("audit.time")}>{a.createdAt.replace("T", " ").slice(0, 19)}</td>
            <td data-label={t("audit.admin")}>{a.adminEmail}</td>
            <td data-label={t("audit.action")}>{a.action}</td>
            <td data-label={t("audit.target")}>{a.target}</td>
            <td data-label={t("audit.details")}>
              <code>{a.details}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
