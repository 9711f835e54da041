// The signed-in Change password page (/user/change-password, product.md §2): current, new and retyped, checked before sending.
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { RETYPED_PASSWORD_MISMATCH, RULES } from "../../../common/validation";
import { NewPasswordFields, PasswordField } from "../../components/AccountFields";
import { EntityPage, FormActions } from "../../components/EntityForm";
import { formReady } from "../../components/formChecks";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { useSaveAndReturn } from "../../hooks/useSaveAndReturn";
import { useSessionUser } from "../../hooks/useSessionUser";
import { warn } from "../../lib/notify";
import { useChangePassword } from "./hooks/useChangePassword";

/**
 * `/user/change-password` (product.md §2 "Change password"): current, new and retyped password, all
 * required (product.md §5: red when blank, nothing sent). New and retyped must match, else the toast
 * 'New and ReTyped password do not match.' (product.md §8). The server's own rules (common/validation.ts,
 * e.g. "The new password must be at least 8 characters.") are checked first, the same
 * sentence shown as the server's refusal would be, and nothing is sent. Change sends PATCH /users/update-password;
 * success shows the server's message and, when it goes away, returns to the list (product.md §4); a
 * refusal shows the server's message as a warning toast.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation("profile");
  const user = useSessionUser();
  const change = useChangePassword();
  const required = useRequiredFields({ current: "", password: "", retyped: "" });
  const { saved, backToList, onSaved } = useSaveAndReturn();
  const { values, bind } = required;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending || saved || user === null) return;
    const checks = [
      [RULES.currentPassword, values.current],
      [RULES.newPassword, values.password],
      [RULES.retypedPassword, values.retyped],
    ] as const;
    const match = { values: [values.password, values.retyped], sentence: RETYPED_PASSWORD_MISMATCH } as const;
    if (!formReady(required, checks, { warn, match })) return;
    change.mutate(
      { id: user.id, current: values.current, password: values.password, retyped: values.retyped },
      { onSuccess: (answer) => onSaved(answer.message || t("password.changed")) },
    );
  };

  return (
    <EntityPage title={t("password.title")}>
      <div className="card entity-card entity-card--narrow">
        <form className="form entity-form" onSubmit={onSubmit} noValidate>
          <PasswordField label={t("password.current")} {...bind("current")} />
          <NewPasswordFields
            labels={[t("password.new"), t("password.retyped")]}
            password={bind("password")}
            confirm={bind("retyped")}
          />
          <FormActions
            onCancel={backToList}
            submitLabel={t("password.submit")}
            pending={change.isPending}
            done={saved}
          />
        </form>
      </div>
    </EntityPage>
  );
}
