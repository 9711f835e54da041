// `/setup/:token`: the owner's first-run form that creates the admin account (product.md §2 "Owner set-up").
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { CONFIRM_PASSWORD_MISMATCH, RULES } from "../../../common/validation";
import { completeSetup, setupLinkValid } from "../../api/accounts";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { useAccountSignIn } from "../../hooks/useAccountSignIn";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { warnPublic } from "../../lib/notify";
import { firstLocalProblem, localValidation } from "../../lib/validationText";
import "../login/login.css";

/**
 * The owner set-up page, opened from the link the server prints at start while no admin exists:
 * e-mail, name (optional), password and its confirmation. The link is checked first (GET
 * /setup/:token); a used or expired one says how to get a new one. On success the owner is
 * signed in and lands in the app; the admin console is at /admin.
 */
export function SetupPage() {
  const { t } = useTranslation("auth");
  const { token = "" } = useParams();
  const valid = useQuery({
    queryKey: ["setup", token],
    queryFn: () => setupLinkValid(token),
    retry: false,
    meta: { silent: true },
  });
  const fields = useRequiredFields({ email: "", password: "", confirm: "" });
  const [name, setName] = useState("");
  const setup = useAccountSignIn(completeSetup);
  const busy = setup.isPending || setup.data?.success === 1;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fields.validate()) return;
    const { email, password, confirm } = fields.values;
    const problem = firstLocalProblem([
      [RULES.email, email],
      [RULES.newPassword, password],
      [RULES.confirmPassword, confirm],
    ]);
    if (problem) return warnPublic(problem);
    if (password !== confirm) return warnPublic(localValidation(CONFIRM_PASSWORD_MISMATCH));
    setup.mutate({ token, email: email.trim(), name: name.trim(), password });
  };

  if (valid.isPending) {
    return (
      <section className="public-page login-screen">
        <Spinner label={t("setup.checking")} />
      </section>
    );
  }
  if (valid.data !== true) {
    return (
      <section className="public-page login-screen">
        <div className="card login-card">
          <h1 className="form__title">{t("setup.title")}</h1>
          <p className="form__lead">{t("setup.invalid")}</p>
          <Link to="/login">{t("setup.toLogin")}</Link>
        </div>
      </section>
    );
  }
  return (
    <section className="public-page login-screen">
      <form className="form card login-card" onSubmit={submit} noValidate aria-label={t("setup.title")}>
        <h1 className="form__title">{t("setup.title")}</h1>
        <p className="form__lead">{t("setup.lead")}</p>
        <TextField
          label={t("setup.email")}
          type="email"
          autoComplete="email"
          autoFocus
          {...fields.bind("email")}
        />
        <TextField label={t("setup.name")} autoComplete="name" value={name} onChange={setName} />
        <TextField
          label={t("setup.password")}
          type="password"
          autoComplete="new-password"
          {...fields.bind("password")}
        />
        <TextField
          label={t("setup.confirm")}
          type="password"
          autoComplete="new-password"
          {...fields.bind("confirm")}
        />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={busy}
          aria-busy={busy}
        >
          {setup.isPending && <span className="spinner spinner--small" aria-hidden="true" />}
          {t("setup.submit")}
        </button>
      </form>
    </section>
  );
}
