// `/setup/:token`: the owner's first-run form that creates the admin account (product.md §2 "Owner set-up").
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { RULES } from "../../../common/validation";
import { completeSetup, setupLinkValid } from "../../api/accounts";
import { EmailField, NewPasswordFields } from "../../components/AccountFields";
import { AuthForm, SubmitButton } from "../../components/AuthForm";
import { newPasswordReady } from "../../components/formChecks";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { useAccountSignIn } from "../../hooks/useAccountSignIn";
import { useRequiredFields } from "../../hooks/useRequiredFields";
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
    const { email, password, confirm } = fields.values;
    if (!newPasswordReady(fields, [[RULES.email, email]], password, confirm)) return;
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
      <AuthForm title={t("setup.title")} lead={t("setup.lead")} onSubmit={submit}>
        <EmailField label={t("setup.email")} autoFocus {...fields.bind("email")} />
        <TextField label={t("setup.name")} autoComplete="name" value={name} onChange={setName} />
        <NewPasswordFields
          labels={[t("setup.password"), t("setup.confirm")]}
          password={fields.bind("password")}
          confirm={fields.bind("confirm")}
        />
        <SubmitButton label={t("setup.submit")} busy={busy} spinner={setup.isPending} />
      </AuthForm>
    </section>
  );
}
