import type { FormEvent } from "react";
import { useParams } from "react-router";
import { CONFIRM_PASSWORD_MISMATCH, firstProblem, RULES } from "../../../common/validation";
import { TextField } from "../../components/TextField";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { warnPublic } from "../../lib/notify";
import { useResetPassword } from "./hooks/useResetPassword";
import "../login/login.css";

/** spec 5, 8: the toast when the two passwords differ. */
export const RESET_MISMATCH = CONFIRM_PASSWORD_MISMATCH;

/**
 * `/reset-password/:code` (spec 2 "Change Password"): New Password and Confirm Password, both
 * required (spec 5) and equal, else the toast 'New and Confirm password do not match.'. The
 * server's rules (common/validation.ts, issue 16) are checked first and their sentence shown as
 * the same warning toast, nothing sent. Reset
 * sends PATCH /users/change-password with the code from the route.
 */
export function ResetPasswordPage() {
  const { code = "" } = useParams();
  const fields = useRequiredFields({ npassword: "", rtpassword: "" });
  const reset = useResetPassword();
  const busy = reset.isPending || reset.data?.success === 1;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fields.validate()) return;
    const { npassword, rtpassword } = fields.values;
    const problem = firstProblem([
      [RULES.newPassword, npassword],
      [RULES.confirmPassword, rtpassword],
    ]);
    if (problem) {
      warnPublic(problem);
      return;
    }
    if (npassword !== rtpassword) {
      warnPublic(RESET_MISMATCH);
      return;
    }
    reset.mutate({ npassword, rtpassword, code });
  };

  return (
    <section className="public-page login-screen">
      <form className="form card login-card" onSubmit={submit} noValidate aria-label="Change Password">
        <h1 className="form__title">Change Password</h1>
        <p className="form__lead">Choose a new password for your account.</p>
        <TextField
          label="New Password"
          type="password"
          autoComplete="new-password"
          autoFocus
          {...fields.bind("npassword")}
        />
        <TextField
          label="Confirm Password"
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
          Reset
        </button>
      </form>
    </section>
  );
}
