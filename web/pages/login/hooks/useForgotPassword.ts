// The Recover Password request (POST /auth/forgot-password) and its toasts (product.md §4, §8).
import type { UseMutationResult } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Envelope } from "../../../../common/api";
import { forgotPassword } from "../../../api/auth";
import { usePublicRequest } from "../../../hooks/usePublicRequest";

/**
 * The Recover Password request (POST /auth/forgot-password with `email`). Shows the server's
 * message: a success toast on success 1, else a warning toast (product.md §8). `onDone` runs after a
 * success (product.md §4: the screen returns to sign-in mode).
 */
export function useForgotPassword(onDone: () => void): UseMutationResult<Envelope, Error, string> {
  const { t } = useTranslation("auth");
  const failed = t("recover.failed");
  return usePublicRequest(forgotPassword, onDone, {
    sent: t("recover.sent"),
    refused: failed,
    failure: (error) => error.message || failed,
    logAs: "forgot-password",
  });
}
