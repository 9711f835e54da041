// The admin console's Contact section: the messages sent through the contact form, newest first.
import { useTranslation } from "react-i18next";
import { useAdminContactMessages } from "../hooks/useAdminContactMessages";
import { AdminTable, tableTime } from "./AdminTable";

/** Messages sent through the contact form, newest first. */
export function ContactSection() {
  const { t } = useTranslation("admin");
  const messages = useAdminContactMessages();
  return (
    <AdminTable
      label={t("contact.table")}
      rows={messages.data}
      loading={t("contact.loading")}
      empty={t("contact.empty")}
      columns={[
        { label: t("contact.received"), cell: (m) => tableTime(m.createdAt) },
        { label: t("contact.from"), cell: (m) => `${m.name} <${m.email}>` },
        { label: t("contact.subject"), cell: (m) => m.subject },
        { label: t("contact.message"), cell: (m) => m.message, className: "admin-message" },
      ]}
    />
  );
}
