// Resetting a forgotten password with the link's code (PATCH /users/change-password) and its toasts.
import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { Envelope } from "../../../../common/api";
import { classifyFailure } from "../../../api/failure";
import { type PasswordReset, resetPassword } from "../../../api/public";
import { succeed, warnPublic } from "../../../lib/notify";
import { isInAppPath } from "../../../lib/text";

/**
 * The reset of a forgotten password (PATCH /users/change-password with `npassword`,
 * `rtpassword`, `code`). product.md §8: success 1 → success toast with the server message
 * (top-right, 2 s), and when it goes away the app opens the answer's `page` (default /login);
 * a refusal (success 0, e.g. HTTP 400 for a bad or used code) → the server message as a
 * warning toast; no usable answer → 'Failed to change password. Please try again.' (catalogue "auth", `reset.*`).
 */
export function useResetPassword(): UseMutationResult<Envelope, Error, PasswordReset> {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  return useMutation({
    mutationFn: resetPassword,
    meta: { silent: true },
    onSuccess: (answer) => {
      if (answer.success === 1) {
        const page = isInAppPath(answer.page) ? answer.page : "/login";
        succeed(answer.message || t("reset.changed"), undefined, () => navigate(page));
      } else {
        warnPublic(answer.message || t("reset.refused"));
      }
    },
    onError: (error) => {
      if (classifyFailure(error) !== "handled") warnPublic(t("reset.failure"));
    },
  });
}
