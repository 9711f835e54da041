// The admin console's free-subscription requests, approved by hand when the video comment check cannot run.
import { useTranslation } from "react-i18next";
import { succeed } from "../../../lib/notify";
import { useAdminFreeSubscriptions } from "../hooks/useAdminFreeSubscriptions";
import { useApproveFreeSubscription } from "../hooks/useApproveFreeSubscription";
import { ActionButton } from "./ActionButton";
import { AdminTable, tableTime } from "./AdminTable";

/**
 * Free-subscription requests. Approve creates the Free account and mails the login
 * details, for when the video comment check cannot run.
 */
export function FreeSubscriptionsSection() {
  const { t } = useTranslation("admin");
  const requests = useAdminFreeSubscriptions();
  const approve = useApproveFreeSubscription();
  return (
    <AdminTable
      label={t("free.table")}
      rows={requests.data}
      loading={t("free.loading")}
      empty={t("free.empty")}
      columns={[
        { label: t("free.requested"), cell: (r) => tableTime(r.createdAt) },
        { label: t("common.email"), cell: (r) => r.email },
        { label: t("free.code"), cell: (r) => r.code },
        { label: t("common.status"), cell: (r) => `${r.status}${r.lastError ? ` (${r.lastError})` : ""}` },
        {
          label: t("common.actions"),
          cell: (r) =>
            r.status !== "verified" && (
              <ActionButton
                label={t("free.approveOf", { email: r.email })}
                disabled={approve.isPending}
                onClick={() => approve.mutate(r.id, { onSuccess: (answer) => succeed(answer.message) })}
              >
                {t("free.approve")}
              </ActionButton>
            ),
        },
      ]}
    />
  );
}
