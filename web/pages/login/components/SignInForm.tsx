// The login screen's 'Member Sign in' form (product.md §2): e-mail, password, Forgot Password, Sign in with YouTube.
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { RULES } from "../../../../common/validation";
import { YOUTUBE_SIGN_IN_URL } from "../../../api/auth";
import { EmailField, PasswordField } from "../../../components/AccountFields";
import { AuthForm, SubmitButton } from "../../../components/AuthForm";
import { formReady } from "../../../components/formChecks";
import { useRequiredFields } from "../../../hooks/useRequiredFields";
import { warnPublic } from "../../../lib/notify";
import { useOAuthPlatform } from "../hooks/useOAuthPlatform";

interface SignInFormProps {
  busy: boolean;
  onSubmit: (credentials: { email: string; password: string }) => void;
  onForgotPassword: () => void;
}

/**
 * The 'Member Sign in' form (product.md §2): email and password, both required (product.md §5), Login, the
 * Forgot Password link and 'Sign in with YouTube' (a full navigation to the server's OAuth start),
 * shown only when the server says YouTube sign-in is configured. The server's length
 * rules (common/validation.ts) are checked before sending; a broken one shows its sentence as the
 * warning toast a refusal would show, nothing sent.
 */
export function SignInForm({ busy, onSubmit, onForgotPassword }: SignInFormProps) {
  const { t } = useTranslation("auth");
  const fields = useRequiredFields({ email: "", password: "" });
  const [submitted, setSubmitted] = useState(false);
  const youtube = useOAuthPlatform("youtube");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const { email, password } = fields.values;
    const checks = [
      [RULES.loginEmail, email],
      [RULES.loginPassword, password],
    ] as const;
    if (formReady(fields, checks, { warn: warnPublic })) onSubmit({ email: email.trim(), password });
  };

  return (
    <AuthForm
      title={t("signIn.title")}
      onSubmit={submit}
      className="form"
      signInOptions={youtube.settled ? "ready" : "pending"}
    >
      <EmailField label={t("signIn.email")} autoFocus {...fields.bind("email")} />
      <PasswordField label={t("signIn.password")} {...fields.bind("password")} />
      <SubmitButton label={busy ? t("signIn.busy") : t("signIn.submit")} busy={busy} />
      <button type="button" className="link-button" onClick={onForgotPassword}>
        {t("signIn.forgot")}
      </button>
      {youtube.offered && (
        <>
          <div className="form__divider" aria-hidden="true">
            <span>{t("signIn.or")}</span>
          </div>
          {/* A full page load: the server redirects to the video platform's consent screen. */}
          <a className="button button--youtube button--block" href={YOUTUBE_SIGN_IN_URL}>
            <svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true">
              <path d="M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4a2.5 2.5 0 0 0-1.8 1.8C2 8.8 2 12 2 12s0 3.2.4 4.8a2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8zM10 15V9l5.2 3z" />
            </svg>
            {t("signIn.youtube")}
          </a>
        </>
      )}
      {submitted && (fields.invalid.email || fields.invalid.password) && (
        <p className="form__hint" role="alert">
          {t("signIn.fillIn")}
        </p>
      )}
    </AuthForm>
  );
}
