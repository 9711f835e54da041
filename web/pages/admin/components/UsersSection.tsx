// The admin console's Users section: add and search users, set a plan or own limits, block, reset the count.
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AdminUser } from "../../../api/admin";
import { succeed } from "../../../lib/notify";
import { planDisplayName } from "../../../lib/planName";
import { useAdminForm } from "../hooks/useAdminForm";
import { useAdminPlans } from "../hooks/useAdminPlans";
import { useAdminUserAction } from "../hooks/useAdminUserAction";
import { useAdminUsers } from "../hooks/useAdminUsers";
import { AccountsSection } from "./AccountsSection";
import { ActionButton } from "./ActionButton";
import { AdminField } from "./AdminField";
import { AdminTable } from "./AdminTable";
import { GrantFields, savedThen } from "./adminFormParts";

/** Users: add a user and invitation links (AccountsSection), search, plan, limits, block, reset the count. */
export function UsersSection() {
  const { t } = useTranslation("admin");
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState("");
  const users = useAdminUsers(query);
  const [limitsOf, setLimitsOf] = useState<string | null>(null);
  const limitsUser = users.data?.find((user) => user.id === limitsOf);
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setQuery(draft.trim());
  };
  return (
    <>
      <AccountsSection />
      <form className="row-actions" aria-label={t("users.searchForm")} onSubmit={onSearch}>
        <AdminField label={t("users.search")} kind="text" value={draft} onChange={setDraft} />
        <button type="submit" className="button button--primary">
          {t("users.searchButton")}
        </button>
      </form>
      <AdminTable
        label={t("users.table")}
        rows={users.data}
        loading={t("users.loading")}
        empty={t("users.empty")}
        columns={[
          {
            label: t("common.email"),
            cell: (user) => `${user.email}${user.role === "admin" ? t("users.adminMark") : ""}`,
          },
          {
            label: t("common.plan"),
            cell: (user) =>
              `${planDisplayName(user.planName)}${user.planEndsAt ? t("users.until", { date: user.planEndsAt.slice(0, 10) }) : ""}`,
          },
          {
            label: t("common.messages"),
            cell: (user) => `${user.chatCount} / ${user.chatLimit} (+${user.extraMessages})`,
          },
          {
            label: t("common.status"),
            cell: (user) => (user.blocked ? t("users.blocked") : t("users.active")),
          },
          {
            label: t("common.actions"),
            cell: (user) => <UserActions user={user} onLimits={() => setLimitsOf(user.id)} />,
          },
        ]}
      />
      {limitsUser && <LimitsForm key={limitsUser.id} user={limitsUser} onDone={() => setLimitsOf(null)} />}
    </>
  );
}

/** A user's actions: choose and set the plan, open the limits form, reset the count, block or unblock. */
function UserActions({ user, onLimits }: { user: AdminUser; onLimits: () => void }) {
  const { t } = useTranslation("admin");
  const plans = useAdminPlans();
  const action = useAdminUserAction();
  const [planId, setPlanId] = useState(user.planId);
  const done = (answer: { message: string }) => succeed(answer.message);
  return (
    <div className="row-actions">
      <AdminField
        label={t("users.planOf", { email: user.email })}
        kind="select"
        value={planId}
        onChange={setPlanId}
        options={(plans.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
      />
      <ActionButton
        label={t("users.setPlanOf", { email: user.email })}
        disabled={action.isPending}
        onClick={() => action.mutate({ kind: "plan", userId: user.id, planId }, { onSuccess: done })}
      >
        {t("users.setPlan")}
      </ActionButton>
      <ActionButton label={t("users.limitsOf", { email: user.email })} onClick={onLimits}>
        {t("users.limits")}
      </ActionButton>
      <ActionButton
        label={t("users.resetCountOf", { email: user.email })}
        disabled={action.isPending}
        onClick={() => action.mutate({ kind: "reset-count", userId: user.id }, { onSuccess: done })}
      >
        {t("users.resetCount")}
      </ActionButton>
      <ActionButton
        label={t(user.blocked ? "users.unblockOf" : "users.blockOf", { email: user.email })}
        disabled={action.isPending}
        onClick={() =>
          action.mutate({ kind: "block", userId: user.id, blocked: !user.blocked }, { onSuccess: done })
        }
      >
        {user.blocked ? t("users.unblock") : t("users.block")}
      </ActionButton>
    </div>
  );
}

/** A user's own limits (characters, voice, photo upload, appearance images, messages, extra messages). */
function LimitsForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const { t } = useTranslation("admin");
  const action = useAdminUserAction();
  const form = useAdminForm({
    cl: user.cl,
    vl: user.vl,
    pl: user.pl,
    il: user.il,
    chatLimit: user.chatLimit,
    extraMessages: user.extraMessages,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    action.mutate({ kind: "limits", userId: user.id, limits: form.values }, { onSuccess: savedThen(onDone) });
  };
  return (
    <form
      className="form admin-form"
      aria-label={t("users.limitsOf", { email: user.email })}
      onSubmit={onSubmit}
    >
      <h2>{t("users.limitsOf", { email: user.email })}</h2>
      <p className="muted">{t("users.limitsNote")}</p>
      <GrantFields form={form} />
      <AdminField label={t("users.chatLimit")} kind="number" {...form.count("chatLimit")} />
      <AdminField label={t("users.extraMessages")} kind="number" {...form.count("extraMessages")} />
      <div className="entity-form__actions">
        <ActionButton onClick={onDone}>{t("common.cancel")}</ActionButton>
        <button type="submit" className="button button--primary" disabled={action.isPending}>
          {t("users.saveLimits")}
        </button>
      </div>
    </form>
  );
}
