import type { FormEvent } from "react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { RETYPED_PASSWORD_MISMATCH, RULES } from "../../../common/validation";
import { EntityPage, FormActions } from "../../components/EntityForm";
import { TextField } from "../../components/TextField";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { useSessionUser } from "../../hooks/useSessionUser";
import { succeed, warn } from "../../lib/notify";
import { firstLocalProblem, localValidation } from "../../lib/validationText";
import { useChangePassword } from "./hooks/useChangePassword";

const LIST_PATH = "/characters/list";

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
  const navigate = useNavigate();
  const user = useSessionUser();
  const change = useChangePassword();
  const required = useRequiredFields({ current: "", password: "", retyped: "" });
  const [done, setDone] = useState(false);
  const { values, bind } = required;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending || done || user === null) return;
    if (!required.validate()) return;
    const problem = firstLocalProblem([
      [RULES.currentPassword, values.current],
      [RULES.newPassword, values.password],
      [RULES.retypedPassword, values.retyped],
    ]);
    if (problem) {
      warn(problem);
      return;
    }
    if (values.password !== values.retyped) {
      warn(localValidation(RETYPED_PASSWORD_MISMATCH));
      return;
    }
    change.mutate(
      { id: user.id, current: values.current, password: values.password, retyped: values.retyped },
      {
        onSuccess: (answer) => {
          setDone(true);
          succeed(answer.message || t("password.changed"), undefined, () => navigate(LIST_PATH));
        },
      },
    );
  };

  return (
    <EntityPage title={t("password.title")}>
      <div className="card entity-card entity-card--narrow">
        <form className="form entity-form" onSubmit={onSubmit} noValidate>
          <TextField
            label={t("password.current")}
            type="password"
            {...bind("current")}
            autoComplete="current-password"
          />
          <TextField
            label={t("password.new")}
            type="password"
            {...bind("password")}
            autoComplete="new-password"
          />
          <TextField
            label={t("password.retyped")}
            type="password"
            {...bind("retyped")}
            autoComplete="new-password"
          />
          <FormActions
            onCancel={() => navigate(LIST_PATH)}
            submitLabel={t("password.submit")}
            pending={change.isPending}
            done={done}
          />
        </form>
      </div>
    </EntityPage>
  );
}
