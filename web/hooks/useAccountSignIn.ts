// Signing in with the answer of a route that creates an account (owner set-up, sign-up).
import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { TOAST_LOGIN_SUCCESS_MS } from "../../common/constants";
import type { LoginEnvelope } from "../api/auth";
import { classifyFailure } from "../api/failure";
import { succeed, warnPublic } from "../lib/notify";
import { saveSession } from "../lib/session";
import { isInAppPath } from "../lib/text";

/**
 * A mutation whose answer has the shape of POST /auth/login's: on success 1 the session is
 * stored (as a password sign-in stores it), a success toast shows and, when it goes away, the
 * app opens the answer's page (default `fallbackPage`); a refusal shows the server's message as
 * a warning toast.
 */
export function useAccountSignIn<T>(
  send: (input: T) => Promise<LoginEnvelope>,
  fallbackPage = "/characters/selection",
): UseMutationResult<LoginEnvelope, Error, T> {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  return useMutation({
    mutationFn: send,
    meta: { silent: true },
    onSuccess: (answer) => {
      if (answer.success !== 1 || answer.data === undefined) {
        warnPublic(answer.message || t("login.failed"));
        return;
      }
      saveSession(answer.data);
      const page = isInAppPath(answer.page) ? answer.page : fallbackPage;
      succeed(answer.message || t("login.success"), TOAST_LOGIN_SUCCESS_MS, () => navigate(page));
    },
    onError: (error) => {
      if (classifyFailure(error) !== "handled") warnPublic(error.message || t("login.failed"));
    },
  });
}
