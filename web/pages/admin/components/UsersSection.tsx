import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AdminUser } from "../../../api/admin";
import { succeed } from "../../../lib/notify";
import { useAdminPlans } from "../hooks/useAdminPlans";
import { useAdminUserAction } from "../hooks/useAdminUserAction";
import { useAdminUsers } from "../hooks/useAdminUsers";
import { AccountsSection } from "./AccountsSection";
import { AdminField } from "./AdminField";

/** Users: add a user and invitation links (AccountsSection), search, plan, limits, block, reset the count. */
export function UsersSection() {
  const { t } = useTranslation("admin");
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState("");
  const users = useAdminUsers(query);
  const [limitsOf, setLimitsOf] = useState<string | null>(null);
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
      {users.data === undefined ? (
        <p className="muted">{t("users.loading")}</p>
      ) : users.data.length === 0 ? (
        <p className="muted">{t("users.empty")}</p>
      ) : (
        <table className="data-table" aria-label={t("users.table")}>
          <thead>
            <tr>
              <th>{t("common.email")}</th>
              <th>{t("common.plan")}</th>
              <th>{t("common.messages")}</th>
              <th>{t("common.status")}</th>
              <th>{t("common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((user) => (
              <UserRow key={user.id} user={user} onLimits={() => setLimitsOf(user.id)} />
            ))}
          </tbody>
        </table>
      )}
      {users.data
        ?.filter((user) => user.id === limitsOf)
        .map((user) => (
          <LimitsForm key={user.id} user={user} onDone={() => setLimitsOf(null)} />
        ))}
    </>
  );
}

function UserRow({ user, onLimits }: { user: AdminUser; onLimits: () => void }) {
  const { t } = useTranslation("admin");
  const plans = useAdminPlans();
  const action = useAdminUserAction();
  const [planId, setPlanId] = useState(user.planId);
  const done = (answer: { message: string }) => succeed(answer.message);
  return (
    <tr>
      <td data-label={t("common.email")}>
        {user.email}
        {user.role === "admin" ? t("users.adminMark") : ""}
      </td>
      <td data-label={t("common.plan")}>
        {user.planName}
        {user.planEndsAt ? t("users.until", { date: user.planEndsAt.slice(0, 10) }) : ""}
      </td>
      <td data-label={t("common.messages")}>
        {user.chatCount} / {user.chatLimit} (+{user.extraMessages})
      </td>
      <td data-label={t("common.status")}>{user.blocked ? t("users.blocked") : t("users.active")}</td>
      <td data-label={t("common.actions")}>
        <div className="row-actions">
          <AdminField
            label={t("users.planOf", { email: user.email })}
            kind="select"
            value={planId}
            onChange={setPlanId}
            options={(plans.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
          <button
            type="button"
            className="button button--ghost"
            aria-label={t("users.setPlanOf", { email: user.email })}
            disabled={action.isPending}
            onClick={() => action.mutate({ kind: "plan", userId: user.id, planId }, { onSuccess: done })}
          >
            {t("users.setPlan")}
          </button>
          <button
            type="button"
            className="button button--ghost"
            aria-label={t("users.limitsOf", { email: user.email })}
            onClick={onLimits}
          >
            {t("users.limits")}
          </button>
          <button
            type="button"
            className="button button--ghost"
            aria-label={t("users.resetCountOf", { email: user.email })}
            disabled={action.isPending}
            onClick={() => action.mutate({ kind: "reset-count", userId: user.id }, { onSuccess: done })}
          >
            {t("users.resetCount")}
          </button>
          <button
            type="button"
            className="button button--ghost"
            aria-label={t(user.blocked ? "users.unblockOf" : "users.blockOf", { email: user.email })}
            disabled={action.isPending}
            onClick={() =>
              action.mutate({ kind: "block", userId: user.id, blocked: !user.blocked }, { onSuccess: done })
            }
          >
            {user.blocked ? t("users.unblock") : t("users.block")}
          </button>
        </div>
      </td>
    </tr>
  );
}

function LimitsForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const { t } = useTranslation("admin");
  const action = useAdminUserAction();
  const [limits, setLimits] = useState({
    cl: user.cl,
    vl: user.vl,
    pl: user.pl,
    il: user.il,
    chatLimit: user.chatLimit,
    extraMessages: user.extraMessages,
  });
  const num = (value: string) => Math.max(0, Number.parseInt(value, 10) || 0);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    action.mutate(
      { kind: "limits", userId: user.id, limits },
      {
        onSuccess: (answer) => {
          succeed(answer.message);
          onDone();
        },
      },
    );
  };
  return (
    <form
      className="form admin-form"
      aria-label={t("users.limitsOf", { email: user.email })}
      onSubmit={onSubmit}
    >
      <h2>{t("users.limitsOf", { email: user.email })}</h2>
      <p className="muted">{t("users.limitsNote")}</p>
      <AdminField
        label={t("common.characterLimit")}
        kind="number"
        value={String(limits.cl)}
        onChange={(v) => setLimits({ ...limits, cl: num(v) })}
      />
      <AdminField
        label={t("common.voiceLimit")}
        kind="number"
        value={String(limits.vl)}
        onChange={(v) => setLimits({ ...limits, vl: num(v) })}
      />
      <AdminField
        label={t("common.photoUpload")}
        kind="checkbox"
        value={limits.pl}
        onChange={(v) => setLimits({ ...limits, pl: v })}
      />
      <AdminField
        label={t("common.appearanceImages")}
        kind="checkbox"
        value={limits.il}
        onChange={(v) => setLimits({ ...limits, il: v })}
      />
      <AdminField
        label={t("users.chatLimit")}
        kind="number"
        value={String(limits.chatLimit)}
        onChange={(v) => setLimits({ ...limits, chatLimit: num(v) })}
      />
      <AdminField
        label={t("users.extraMessages")}
        kind="number"
        value={String(limits.extraMessages)}
        onChange={(v) => setLimits({ ...limits, extraMessages: num(v) })}
      />
      <div className="entity-form__actions">
        <button type="button" className="button button--ghost" onClick={onDone}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button button--primary" disabled={action.isPending}>
          {t("users.saveLimits")}
        </button>
      </div>
    </form>
  );
}
