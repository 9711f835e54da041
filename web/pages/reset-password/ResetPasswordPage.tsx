import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { CONFIRM_PASSWORD_MISMATCH, RULES } from "../../../common/validation";
import { TextField } from "../../components/TextField";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { warnPublic } from "../../lib/notify";
import { useResetPassword } from "./hooks/useResetPassword";
import "../login/login.css";
import { firstLocalProblem, localValidation } from "../../lib/validationText";

/**
 * `/reset-password/:code` (product.md §2 "Change Password"): New Password and Confirm Password, both
 * required (product.md §5) and equal, else the toast 'New and Confirm password do not match.'. The
 * server's rules (common/validation.ts) are checked first and their sentence shown as
 * the same warning toast, nothing sent. Reset
 * sends PATCH /users/change-password with the code from the route.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation("auth");
  const { code = "" } = useParams();
  const fields = useRequiredFields({ npassword: "", rtpassword: "" });
  const reset = useResetPassword();
  const busy = reset.isPending || reset.data?.success === 1;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fields.validate()) return;
    const { npassword, rtpassword } = fields.values;
    const problem = firstLocalProblem([
      [RULES.newPassword, npassword],
      [RULES.confirmPassword, rtpassword],
    ]);
    if (problem) {
      warnPublic(problem);
      return;
    }
    if (npassword !== rtpassword) {
      // product.md §5, 8: the toast when the two passwords differ, in the app's language.
      warnPublic(localValidation(CONFIRM_PASSWORD_MISMATCH));
      return;
    }
    reset.mutate({ npassword, rtpassword, code });
  };

  return (
    <section className="public-page login-screen">
      <form className="form card login-card" onSubmit={submit} noValidate aria-label={t("reset.title")}>
        <h1 className="form__title">{t("reset.title")}</h1>
        <p className="form__lead">{t("reset.lead")}</p>
        <TextField
          label={t("reset.newPassword")}
          type="password"
          autoComplete="new-password"
          autoFocus
          {...fields.bind("npassword")}
        />
        <TextField
          label={t("reset.confirmPassword")}
          type="password"
          autoComplete="new-password"
          {...fields.bind("rtpassword")}
        />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={busy}
          aria-busy={busy}
        >
          {reset.isPending && <span className="spinner spinner--small" aria-hidden="true" />}
          {t("reset.submit")}
        </button>
      </form>
    </section>
  );
}
