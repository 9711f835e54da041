// The account screens' form frame (sign-in, recover, sign-up, set-up, reset) and the public forms' submit button.
import type { FormEvent, ReactNode } from "react";

/**
 * A public form named `title` (its aria-label and `<h1>`), with an optional lead paragraph under
 * the title; the browser's own validation is off (`noValidate`: product.md §5 flags blank fields).
 * `className` defaults to the login screen's card ("form card login-card").
 */
export function AuthForm({
  title,
  lead,
  onSubmit,
  className = "form card login-card",
  signInOptions,
  children,
}: {
  title: string;
  lead?: string;
  onSubmit: (event: FormEvent) => void;
  className?: string;
  /** The sign-in form's `data-sign-in-options` ("ready" once the offered sign-in ways are known). */
  signInOptions?: "ready" | "pending";
  children: ReactNode;
}) {
  return (
    <form
      className={className}
      onSubmit={onSubmit}
      noValidate
      aria-label={title}
      data-sign-in-options={signInOptions}
    >
      <h1 className="form__title">{title}</h1>
      {lead !== undefined && <p className="form__lead">{lead}</p>}
      {children}
    </form>
  );
}

/**
 * A public form's full-width primary submit button reading `label`: disabled and `aria-busy`
 * while `busy`, with a small spinner before the label while `spinner`.
 */
export function SubmitButton({
  label,
  busy,
  spinner = false,
}: {
  label: string;
  busy: boolean;
  spinner?: boolean;
}) {
  return (
    <button type="submit" className="button button--primary button--block" disabled={busy} aria-busy={busy}>
      {spinner && <span className="spinner spinner--small" aria-hidden="true" />}
      {label}
    </button>
  );
}
