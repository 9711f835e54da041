import type { FormEvent } from "react";
import { TextField } from "../../../components/TextField";
import { useRequiredFields } from "../../../hooks/useRequiredFields";

interface RecoverFormProps {
  busy: boolean;
  onSubmit: (email: string) => void;
  onBackToLogin: () => void;
}

/** The 'Recover Password' form (spec 2): email (required, spec 5), Submit, back to login. */
export function RecoverForm({ busy, onSubmit, onBackToLogin }: RecoverFormProps) {
  const fields = useRequiredFields({ email: "" });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fields.validate()) return;
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
