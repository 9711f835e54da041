// The admin console's "Add user" form and invitation links (product.md §2 "Accounts").
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { RULES } from "../../../../common/validation";
import { succeed, warn } from "../../../lib/notify";
import { firstLocalProblem } from "../../../lib/validationText";
import {
  useAddUser,
  useCreateInvitation,
  useInvitations,
  useRevokeInvitation,
} from "../hooks/useAdminAccounts";
import { AdminField } from "./AdminField";

/** Copies `text` to the clipboard and says so; a refused clipboard shows a warning. */
function useCopy(): (text: string) => void {
  const { t } = useTranslation("admin");
  return (text) => {
    navigator.clipboard.writeText(text).then(
      () => succeed(t("accounts.copied")),
      () => warn(t("accounts.copyFailed")),
    );
  };
}

/** "Add user" and "Invitation links", above the users' search. */
export function AccountsSection() {
  return (
    <div className="admin-accounts">
      <AddUserForm />
      <InvitationsPanel />
    </div>
  );
}

/** E-mail, name, a password or "generate", admin or not; a generated password is shown once. */
function AddUserForm() {
  const { t } = useTranslation("admin");
  const add = useAddUser();
  const copy = useCopy();
  const empty = { email: "", name: "", password: "", generate: true, admin: false };
  const [form, setForm] = useState(empty);
  const [shown, setShown] = useState<{ email: string; password: string } | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const password = form.generate ? "" : form.password;
    const problem = firstLocalProblem(
      form.generate
        ? [[RULES.email, form.email]]
        : [
            [RULES.email, form.email],
            [RULES.newPassword, password],
          ],
    );
    if (problem) return warn(problem);
    add.mutate(
      { email: form.email.trim(), name: form.name.trim(), password, admin: form.admin },
      {
        onSuccess: (answer) => {
          succeed(answer.message);
          const data = answer.data;
          setShown(data?.password ? { email: data.email, password: data.password } : null);
          setForm(empty);
        },
      },
    );
  };
  return (
    <form className="form admin-form" aria-label={t("accounts.addTitle")} onSubmit={onSubmit}>
      <h2>{t("accounts.addTitle")}</h2>
      <AdminField
        label={t("common.email")}
        kind="text"
        value={form.email}
        onChange={(email) => setForm({ ...form, email })}
      />
      <AdminField
        label={t("accounts.name")}
        kind="text"
        value={form.name}
        onChange={(name) => setForm({ ...form, name })}
      />
      <AdminField
        label={t("accounts.generate")}
        kind="checkbox"
        value={form.generate}
        onChange={(generate) => setForm({ ...form, generate })}
      />
      {!form.generate && (
        <AdminField
          label={t("accounts.password")}
          kind="text"
          value={form.password}
          onChange={(password) => setForm({ ...form, password })}
        />
      )}
      <AdminField
        label={t("accounts.admin")}
        kind="checkbox"
        value={form.admin}
        onChange={(admin) => setForm({ ...form, admin })}
      />
      <div className="entity-form__actions">
        <button type="submit" className="button button--primary" disabled={add.isPending}>
          {t("accounts.add")}
        </button>
      </div>
      {shown && (
        <div className="admin-accounts__secret" role="status">
          <p>{t("accounts.generated", { email: shown.email })}</p>
          <code>{shown.password}</code>
          <div className="row-actions">
            <button type="button" className="button button--ghost" onClick={() => copy(shown.password)}>
              {t("accounts.copyPassword")}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setShown(null)}>
              {t("accounts.hide")}
            </button>
          </div>
        </div>
      )}
    </form>
  );
}

/** New invitations (optional e-mail lock, 1-30 days, one use) and the open ones with copy and revoke. */
function InvitationsPanel() {
  const { t, i18n } = useTranslation("admin");
  const invitations = useInvitations();
  const create = useCreateInvitation();
  const revoke = useRevokeInvitation();
  const copy = useCopy();
  const [email, setEmail] = useState("");
  const [days, setDays] = useState("7");
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const count = Number.parseInt(days, 10);
    if (!(count >= 1 && count <= 30)) return warn(t("accounts.daysRange"));
    create.mutate(
      { email: email.trim(), days: count },
      {
        onSuccess: (answer) => {
          succeed(answer.message);
          setEmail("");
        },
      },
    );
  };
  const date = (ms: number) => new Date(ms).toLocaleDateString(i18n.language);
  return (
    <div className="admin-form">
      <h2>{t("accounts.invitesTitle")}</h2>
      <form className="row-actions" aria-label={t("accounts.inviteForm")} onSubmit={onSubmit}>
        <AdminField label={t("accounts.inviteEmail")} kind="text" value={email} onChange={setEmail} />
        <AdminField label={t("accounts.days")} kind="number" value={days} onChange={setDays} />
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          {t("accounts.invite")}
        </button>
      </form>
      {invitations.data === undefined ? (
        <p className="muted">{t("accounts.loading")}</p>
      ) : invitations.data.length === 0 ? (
        <p className="muted">{t("accounts.noInvites")}</p>
      ) : (
        <table className="data-table" aria-label={t("accounts.invitesTitle")}>
          <thead>
            <tr>
              <th>{t("common.email")}</th>
              <th>{t("accounts.expires")}</th>
              <th>{t("common.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {invitations.data.map((invitation) => (
              <tr key={invitation.id}>
                <td data-label={t("common.email")}>{invitation.email || t("accounts.anyEmail")}</td>
                <td data-label={t("accounts.expires")}>{date(invitation.expiresAt)}</td>
                <td data-label={t("common.actions")}>
                  <div className="row-actions">
                    <button
                      type="button"
                      className="button button--ghost"
                      onClick={() => copy(invitation.link)}
                    >
                      {t("accounts.copyLink")}
                    </button>
                    <button
                      type="button"
                      className="button button--ghost"
                      disabled={revoke.isPending}
                      onClick={() =>
                        revoke.mutate(invitation.id, { onSuccess: (answer) => succeed(answer.message) })
                      }
                    >
                      {t("accounts.revoke")}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
