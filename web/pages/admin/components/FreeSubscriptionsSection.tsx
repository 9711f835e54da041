import { useTranslation } from "react-i18next";
import { succeed } from "../../../lib/notify";
import { useAdminFreeSubscriptions } from "../hooks/useAdminFreeSubscriptions";
import { useApproveFreeSubscription } from "../hooks/useApproveFreeSubscription";

/**
 * Free-subscription requests. Approve creates the Free account and mails the login
 * details, for when the video comment check cannot run.
 */
export function FreeSubscriptionsSection() {
  const { t } = useTranslation("admin");
  const requests = useAdminFreeSubscriptions();
  const approve = useApproveFreeSubscription();
  if (requests.data === undefined) return <p className="muted">{t("free.loading")}</p>;
  if (requests.data.length === 0) return <p className="muted">{t("free.empty")}</p>;
  return (
    <table className="data-table" aria-label={t("free.table")}>
      <thead>
        <tr>
          <th>{t("free.requested")}</th>
          <th>{t("common.email")}</th>
          <th>{t("free.code")}</th>
          <th>{t("common.status")}</th>
          <th>{t("common.actions")}</th>
        </tr>
      </thead>
      <tbody>
        {requests.data.map((r) => (
          <tr key={r.id}>
            <td data-label={t("free.requested")}>{r.createdAt.replace("T", " ").slice(0, 16)}</td>
            <td data-label={t("common.email")}>{r.email}</td>
            <td data-label={t("free.code")}>{r.code}</td>
            <td data-label={t("common.status")}>
              {r.status}
              {r.lastError ? ` (${r.lastError})` : ""}
            </td>
            <td data-label={t("common.actions")}>
              {r.status !== "verified" && (
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={t("free.approveOf", { email: r.email })}
                  disabled={approve.isPending}
                  onClick={() => approve.mutate(r.id, { onSuccess: (answer) => succeed(answer.message) })}
                >
                  {t("free.approve")}
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
