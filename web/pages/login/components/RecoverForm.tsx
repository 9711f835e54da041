import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { RULES } from "../../../../common/validation";
import { TextField } from "../../../components/TextField";
import { useRequiredFields } from "../../../hooks/useRequiredFields";
import { warnPublic } from "../../../lib/notify";
import { localCheck } from "../../../lib/validationText";

interface RecoverFormProps {
  busy: boolean;
  onSubmit: (email: string) => void;
  onBackToLogin: () => void;
}

/**
 * The 'Recover Password' form (product.md §2): email (required, product.md §5), Submit, back to login. The
 * address is checked by the server's rule first (common/validation.ts): "The e-mail
 * address is not valid." as a warning toast, nothing sent.
 */
export function RecoverForm({ busy, onSubmit, onBackToLogin }: RecoverFormProps) {
  const { t } = useTranslation("auth");
  const fields = useRequiredFields({ email: "" });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fields.validate()) return;
    const problem = localCheck(RULES.email, fields.values.email);
    if (problem) {
      warnPublic(problem);
      return;
    }
    onSubmit(fields.values.email.trim());
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={t("recover.title")}>
      <h1 className="form__title">{t("recover.title")}</h1>
      <p className="form__lead">{t("recover.lead")}</p>
      <TextField
        label={t("recover.email")}
        type="email"
        autoComplete="email"
        autoFocus
        {...fields.bind("email")}
      />
      <button type="submit" className="button button--primary button--block" disabled={busy} aria-busy={busy}>
        {busy ? t("recover.busy") : t("recover.submit")}
      </button>
      <button type="button" className="link-button" onClick={onBackToLogin}>
        {t("recover.back")}
      </button>
    </form>
  );
}
