import type { FormEvent } from "react";
import { checkText, RULES } from "../../../../common/validation";
import { TextField } from "../../../components/TextField";
import { useRequiredFields } from "../../../hooks/useRequiredFields";
import { warnPublic } from "../../../lib/notify";

interface RecoverFormProps {
  busy: boolean;
  onSubmit: (email: string) => void;
  onBackToLogin: () => void;
}

/**
 * The 'Recover Password' form (spec 2): email (required, spec 5), Submit, back to login. The
 * address is checked by the server's rule first (common/validation.ts, issue 16): "The e-mail
 * address is not valid." as a warning toast, nothing sent.
 */
export function RecoverForm({ busy, onSubmit, onBackToLogin }: RecoverFormProps) {
  const fields = useRequiredFields({ email: "" });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fields.validate()) return;
    const problem = checkText(RULES.email, fields.values.email);
    if (problem) {
      warnPublic(problem);
      return;
    }
    onSubmit(fields.values.email.trim());
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Recover Password">
      <h1 className="form__title">Recover Password</h1>
      <p className="form__lead">Enter your email and we will send you a link to reset your password.</p>
      <TextField label="Email" type="email" autoComplete="email" autoFocus {...fields.bind("email")} />
      <button type="submit" className="button button--primary button--block" disabled={busy} aria-busy={busy}>
        {busy ? "Sending..." : "Submit"}
      </button>
      <button type="button" className="link-button" onClick={onBackToLogin}>
        Login to account
      </button>
    </form>
  );
}
