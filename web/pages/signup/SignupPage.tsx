// `/signup` and `/signup?invite=<token>`: create an account with a code mailed to the address (product.md §2 "Sign-up").
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { RULES } from "../../../common/validation";
import { finishSignup, startSignup } from "../../api/accounts";
import { EmailField, NewPasswordFields } from "../../components/AccountFields";
import { AuthForm, SubmitButton } from "../../components/AuthForm";
import { formReady, newPasswordReady } from "../../components/formChecks";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { useAccountSignIn } from "../../hooks/useAccountSignIn";
import { usePublicRequest } from "../../hooks/usePublicRequest";
import { useRegistrationMode } from "../../hooks/useRegistrationMode";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { warnPublic } from "../../lib/notify";
import "../login/login.css";

/**
 * The sign-up page. With an invitation (`?invite=`) it works in every REGISTRATION mode; without
 * one only when the mode is open, else it says how to get an account. Step one asks the e-mail
 * and mails a 6-digit code; step two takes the code, name and password (twice), creates the
 * account and signs it in.
 */
export function SignupPage() {
  const { t } = useTranslation("auth");
  const [search] = useSearchParams();
  const invite = search.get("invite") ?? "";
  const registration = useRegistrationMode();
  const [email, setEmail] = useState<string | null>(null);

  if (!invite && !registration.settled) {
    return (
      <section className="public-page login-screen">
        <Spinner />
      </section>
    );
  }
  if (!invite && registration.mode !== "open") {
    return (
      <section className="public-page login-screen">
        <div className="card login-card">
          <h1 className="form__title">{t("signup.title")}</h1>
          <p className="form__lead">
            {t(registration.mode === "invite" ? "signup.inviteOnly" : "signup.closed")}
          </p>
          <Link to="/login">{t("signup.toLogin")}</Link>
        </div>
      </section>
    );
  }
  return (
    <section className="public-page login-screen">
      {email === null ? (
        <StartForm invite={invite} onSent={setEmail} />
      ) : (
        <FinishForm email={email} invite={invite} onRestart={() => setEmail(null)} />
      )}
    </section>
  );
}

/** Step one: the e-mail; the server mails a code (or, for a known address, a note). */
function StartForm({ invite, onSent }: { invite: string; onSent: (email: string) => void }) {
  const { t } = useTranslation("auth");
  const fields = useRequiredFields({ email: "" });
  const failed = t("signup.failed");
  const start = usePublicRequest(startSignup, (input) => onSent(input.email), {
    sent: t("signup.sent"),
    refused: failed,
    failure: (error) => error.message || failed,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!formReady(fields, [[RULES.email, fields.values.email]], { warn: warnPublic })) return;
    start.mutate({ email: fields.values.email.trim().toLowerCase(), invite: invite || undefined });
  };
  return (
    <AuthForm
      title={t("signup.title")}
      lead={t(invite ? "signup.leadInvited" : "signup.lead")}
      onSubmit={submit}
    >
      <EmailField label={t("signup.email")} autoFocus {...fields.bind("email")} />
      <SubmitButton label={t("signup.sendCode")} busy={start.isPending} spinner={start.isPending} />
      <Link to="/login">{t("signup.toLogin")}</Link>
    </AuthForm>
  );
}

/** Step two: the mailed code, the name and the password; creates the account and signs it in. */
function FinishForm({ email, invite, onRestart }: { email: string; invite: string; onRestart: () => void }) {
  const { t } = useTranslation("auth");
  const fields = useRequiredFields({ code: "", name: "", password: "", confirm: "" });
  const finish = useAccountSignIn(finishSignup);
  const busy = finish.isPending || finish.data?.success === 1;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { code, name, password, confirm } = fields.values;
    if (!newPasswordReady(fields, [[RULES.fullName, name]], password, confirm)) return;
    finish.mutate({ email, code: code.trim(), name: name.trim(), password, invite: invite || undefined });
  };
  return (
    <AuthForm title={t("signup.finishTitle")} lead={t("signup.codeLead", { email })} onSubmit={submit}>
      <TextField label={t("signup.code")} autoComplete="one-time-code" autoFocus {...fields.bind("code")} />
      <TextField label={t("signup.name")} autoComplete="name" {...fields.bind("name")} />
      <NewPasswordFields
        labels={[t("signup.password"), t("signup.confirm")]}
        password={fields.bind("password")}
        confirm={fields.bind("confirm")}
      />
      <SubmitButton label={t("signup.create")} busy={busy} spinner={finish.isPending} />
      <button type="button" className="link-button" onClick={onRestart}>
        {t("signup.otherEmail")}
      </button>
    </AuthForm>
  );
}
