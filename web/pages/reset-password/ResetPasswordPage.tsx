// The password reset page (/reset-password/:code, product.md §2 "Change Password"): new and confirmed password.
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { NewPasswordFields } from "../../components/AccountFields";
import { AuthForm, SubmitButton } from "../../components/AuthForm";
import { newPasswordReady } from "../../components/formChecks";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { useResetPassword } from "./hooks/useResetPassword";
import "../login/login.css";

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
    const { npassword, rtpassword } = fields.values;
    if (newPasswordReady(fields, [], npassword, rtpassword)) reset.mutate({ npassword, rtpassword, code });
  };

  return (
    <section className="public-page login-screen">
      <AuthForm title={t("reset.title")} lead={t("reset.lead")} onSubmit={submit}>
        <NewPasswordFields
          labels={[t("reset.newPassword"), t("reset.confirmPassword")]}
          password={fields.bind("npassword")}
          confirm={fields.bind("rtpassword")}
          autoFocus
        />
        <SubmitButton label={t("reset.submit")} busy={busy} spinner={reset.isPending} />
      </AuthForm>
    </section>
  );
}
