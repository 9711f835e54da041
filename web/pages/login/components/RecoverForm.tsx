// The login screen's 'Recover Password' form (product.md §2): the e-mail address, checked before sending.
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { RULES } from "../../../../common/validation";
import { EmailField } from "../../../components/AccountFields";
import { AuthForm, SubmitButton } from "../../../components/AuthForm";
import { formReady } from "../../../components/formChecks";
import { useRequiredFields } from "../../../hooks/useRequiredFields";
import { warnPublic } from "../../../lib/notify";

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
    const { email } = fields.values;
    if (formReady(fields, [[RULES.email, email]], { warn: warnPublic })) onSubmit(email.trim());
  };

  return (
    <AuthForm title={t("recover.title")} lead={t("recover.lead")} onSubmit={submit} className="form">
      <EmailField label={t("recover.email")} autoFocus {...fields.bind("email")} />
      <SubmitButton label={busy ? t("recover.busy") : t("recover.submit")} busy={busy} />
      <button type="button" className="link-button" onClick={onBackToLogin}>
        {t("recover.back")}
      </button>
    </AuthForm>
  );
}
