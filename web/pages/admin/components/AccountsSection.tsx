// The admin console's "Add user" form and invitation links (product.md §2 "Accounts").
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { RULES, type TextRule } from "../../../../common/validation";
import { CopyableText } from "../../../components/CopyableText";
import { succeed, warn } from "../../../lib/notify";
import {
  useAddUser,
  useCreateInvitation,
  useInvitations,
  useRevokeInvitation,
} from "../hooks/useAdminAccounts";
import { useAdminForm } from "../hooks/useAdminForm";
import { ActionButton } from "./ActionButton";
import { AdminField } from "./AdminField";
import { AdminTable } from "./AdminTable";
import { sendChecked } from "./adminFormParts";

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
  const form = useAdminForm({ email: "", name: "", password: "", generate: true, admin: false });
  const { values } = form;
  const [shown, setShown] = useState<{ email: string; password: string } | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const password = values.generate ? "" : values.password;
    const checks: Array<[TextRule, string]> = [[RULES.email, values.email]];
    if (!values.generate) checks.push([RULES.newPassword, password]);
    sendChecked(checks, () =>
      add.mutate(
        { email: values.email.trim(), name: values.name.trim(), password, admin: values.admin },
        {
          onSuccess: (answer) => {
            succeed(answer.message);
            const data = answer.data;
            setShown(data?.password ? { email: data.email, password: data.password } : null);
            form.reset();
          },
        },
      ),
    );
  };
  return (
    <form className="form admin-form" aria-label={t("accounts.addTitle")} onSubmit={onSubmit}>
      <h2>{t("accounts.addTitle")}</h2>
      <AdminField label={t("common.email")} kind="text" {...form.text("email")} />
      <AdminField label={t("accounts.name")} kind="text" {...form.text("name")} />
      <AdminField label={t("accounts.generate")} kind="checkbox" {...form.flag("generate")} />
      {!values.generate && (
        <AdminField label={t("accounts.password")} kind="text" {...form.text("password")} />
      )}
      <AdminField label={t("accounts.admin")} kind="checkbox" {...form.flag("admin")} />
      <div className="entity-form__actions">
        <button type="submit" className="button button--primary" disabled={add.isPending}>
          {t("accounts.add")}
        </button>
      </div>
      {shown && (
        <div className="admin-accounts__secret" role="status">
          <p>{t("accounts.generated", { email: shown.email })}</p>
          <CopyableText
            value={shown.password}
            label={t("accounts.passwordOf", { email: shown.email })}
            copyLabel={t("accounts.copyPassword")}
          />
          <div className="row-actions">
            <ActionButton onClick={() => setShown(null)}>{t("accounts.hide")}</ActionButton>
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
      <AdminTable
        label={t("accounts.invitesTitle")}
        rows={invitations.data}
        loading={t("accounts.loading")}
        empty={t("accounts.noInvites")}
        columns={[
          { label: t("common.email"), cell: (invitation) => invitation.email || t("accounts.anyEmail") },
          { label: t("accounts.expires"), cell: (invitation) => date(invitation.expiresAt) },
          {
            label: t("accounts.link"),
            cell: (invitation) => (
              <CopyableText
                value={invitation.link}
                label={t("accounts.linkFor", { email: invitation.email || t("accounts.anyEmail") })}
                copyLabel={t("accounts.copyLink")}
              />
            ),
          },
          {
            label: t("common.actions"),
            cell: (invitation) => (
              <div className="row-actions">
                <ActionButton
                  disabled={revoke.isPending}
                  onClick={() =>
                    revoke.mutate(invitation.id, { onSuccess: (answer) => succeed(answer.message) })
                  }
                >
                  {t("accounts.revoke")}
                </ActionButton>
              </div>
            ),
          },
        ]}
      />
    </div>
  );
}
