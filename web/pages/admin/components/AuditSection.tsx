// The admin console's Audit section: every admin action, newest first.
import { useTranslation } from "react-i18next";
import { useAdminAudit } from "../hooks/useAdminAudit";
import { AdminTable, tableTime } from "./AdminTable";

/** Every admin action, newest first. */
export function AuditSection() {
  const { t } = useTranslation("admin");
  const audit = useAdminAudit();
  return (
    <AdminTable
      label={t("audit.table")}
      rows={audit.data}
      loading={t("audit.loading")}
      empty={t("audit.empty")}
      columns={[
        { label: t("audit.time"), cell: (a) => tableTime(a.createdAt, true) },
        { label: t("audit.admin"), cell: (a) => a.adminEmail },
        { label: t("audit.action"), cell: (a) => a.action },
        { label: t("audit.target"), cell: (a) => a.target },
        { label: t("audit.details"), cell: (a) => <code>{a.details}</code> },
      ]}
    />
  );
}
