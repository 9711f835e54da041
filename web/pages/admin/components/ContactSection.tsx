import { useTranslation } from "react-i18next";
import { useAdminContactMessages } from "../hooks/useAdminContactMessages";

/** Messages sent through the contact form, newest first. */
export function ContactSection() {
  const { t } = useTranslation("admin");
  const messages = useAdminContactMessages();
  if (messages.data === undefined) return <p className="muted">{t("contact.loading")}</p>;
  if (messages.data.length === 0) return <p className="muted">{t("contact.empty")}</p>;
  return (
    <table className="data-table" aria-label={t("contact.table")}>
      <thead>
        <tr>
          <th>{t("contact.received")}</th>
          <th>{t("contact.from")}</th>
          <th>{t("contact.subject")}</th>
          <th>{t("contact.message")}</th>
        </tr>
      </thead>
      <tbody>
        {messages.data.map((m) => (
          <tr key={m.id}>
            <td data-label={t("contact.received")}>{m.createdAt.replace("T", " ").slice(0, 16)}</td>
            <td data-label={t("contact.from")}>
              {m.name} &lt;{m.email}&gt;
            </td>
            <td data-label={t("contact.subject")}>{m.subject}</td>
            <td data-label={t("contact.message")} className="admin-message">
              {m.message}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
