// `/signup` and `/signup?invite=<token>`: create an account with a code mailed to the address (product.md §2 "Sign-up").
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { CONFIRM_PASSWORD_MISMATCH, RULES } from "../../../common/validation";
import { finishSignup, startSignup } from "../../api/accounts";
import { classifyFailure } from "../../api/failure";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { useAccountSignIn } from "../../hooks/useAccountSignIn";
import { useRegistrationMode } from "../../hooks/useRegistrationMode";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { succeed, warnPublic } from "../../lib/notify";
import { firstLocalProblem, localValidation } from "../../lib/validationText";
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
  const start = useMutation({
    mutationFn: startSignup,
    meta: { silent: true },
    onSuccess: (answer, input) => {
      if (answer.success !== 1) return warnPublic(answer.message || t("signup.failed"));
      succeed(answer.message || t("signup.sent"));
      onSent(input.email);
    },
    onError: (error) => {
      if (classifyFailure(error) !== "handled") warnPublic(error.message || t("signup.failed"));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fields.validate()) return;
    const problem = firstLocalProblem([[RULES.email, fields.values.email]]);
    if (problem) return warnPublic(problem);
    start.mutate({ email: fields.values.email.trim().toLowerCase(), invite: invite || undefined });
  };
  return (
    <form className="form card login-card" onSubmit={submit} noValidate aria-label={t("signup.title")}>
      <h1 className="form__title">{t("signup.title")}</h1>
      <p className="form__lead">{t(invite ? "signup.leadInvited" : "signup.lead")}</p>
      <TextField
        label={t("signup.email")}
        type="email"
        autoComplete="email"
        autoFocus
        {...fields.bind("email")}
      />
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={start.isPending}
        aria-busy={start.isPending}
      >
        {start.isPending && <span className="spinner spinner--small" aria-hidden="true" />}
        {t("signup.sendCode")}
      </button>
      <Link to="/login">{t("signup.toLogin")}</Link>
    </form>
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
    if (!fields.validate()) return;
    const { code, name, password, confirm } = fields.values;
    const problem = firstLocalProblem([
      [RULES.fullName, name],
      [RULES.newPassword, password],
      [RULES.confirmPassword, confirm],
    ]);
    if (problem) return warnPublic(problem);
    if (password !== confirm) return warnPublic(localValidation(CONFIRM_PASSWORD_MISMATCH));
    finish.mutate({ email, code: code.trim(), name: name.trim(), password, invite: invite || undefined });
  };
  return (
    <form className="form card login-card" onSubmit={submit} noValidate aria-label={t("signup.finishTitle")}>
      <h1 className="form__title">{t("signup.finishTitle")}</h1>
      <p className="form__lead">{t("signup.codeLead", { email })}</p>
      <TextField label={t("signup.code")} autoComplete="one-time-code" autoFocus {...fields.bind("code")} />
      <TextField label={t("signup.name")} autoComplete="name" {...fields.bind("name")} />
      <TextField
        label={t("signup.password")}
        type="password"
        autoComplete="new-password"
        {...fields.bind("password")}
      />
      <TextField
        label={t("signup.confirm")}
        type="password"
        autoComplete="new-password"
        {...fields.bind("confirm")}
      />
      <button type="submit" className="button button--primary button--block" disabled={busy} aria-busy={busy}>
        {finish.isPending && <span className="spinner spinner--small" aria-hidden="true" />}
        {t("signup.create")}
      </button>
      <button type="button" className="link-button" onClick={onRestart}>
        {t("signup.otherEmail")}
      </button>
    </form>
  );
}
