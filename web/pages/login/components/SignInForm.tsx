import { type FormEvent, useState } from "react";
import { TextField } from "../../../components/TextField";
import { useRequiredFields } from "../../../hooks/useRequiredFields";

interface SignInFormProps {
  busy: boolean;
  onSubmit: (credentials: { email: string; password: string }) => void;
  onForgotPassword: () => void;
}

/** The 'Member Sign in' form (spec 2): email and password, both required (spec 5). */
export function SignInForm({ busy, onSubmit, onForgotPassword }: SignInFormProps) {
  const fields = useRequiredFields({ email: "", password: "" });
  const [submitted, setSubmitted] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!fields.validate()) return;
    onSubmit({ email: fields.values.email.trim(), password: fields.values.password });
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Member Sign in">
      <h1 className="form__title">Member Sign in</h1>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        autoFocus
        value={fields.values.email}
        invalid={fields.invalid.email}
        onChange={(value) => fields.setValue("email", value)}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        value={fields.values.password}
        invalid={fields.invalid.password}
        onChange={(value) => fields.setValue("password", value)}
      />
      <button type="submit" className="button button--primary button--block" disabled={busy} aria-busy={busy}>
        {busy ? "Signing in..." : "Login"}
      </button>
      <button type="button" className="link-button" onClick={onForgotPassword}>
        Forgot Password?
      </button>
      {submitted && (fields.invalid.email || fields.invalid.password) && (
        <p className="form__hint" role="alert">
          Please fill in the highlighted fields.
        </p>
      )}
    </form>
  );
}
