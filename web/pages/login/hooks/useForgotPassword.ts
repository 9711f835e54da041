import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Envelope } from "../../../../common/api";
import { forgotPassword } from "../../../api/auth";
import { classifyFailure } from "../../../api/failure";
import { succeed, warnPublic } from "../../../lib/notify";

/**
 * The Recover Password request (POST /auth/forgot-password with `email`). Shows the server's
 * message: a success toast on success 1, else a warning toast (product.md §8). `onDone` runs after a
 * success (product.md §4: the screen returns to sign-in mode).
 */
export function useForgotPassword(onDone: () => void): UseMutationResult<Envelope, Error, string> {
  const { t } = useTranslation("auth");
  return useMutation({
    mutationFn: forgotPassword,
    meta: { silent: true },
    onSuccess: (answer) => {
      if (answer.success === 1) {
        succeed(answer.message || t("recover.sent"));
        onDone();
      } else {
        warnPublic(answer.message || t("recover.failed"));
      }
    },
    onError: (error) => {
      console.error("forgot-password", error);
      if (classifyFailure(error) !== "handled") warnPublic(error.message || t("recover.failed"));
    },
  });
}
