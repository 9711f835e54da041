import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Envelope } from "../../../../common/api";
import { classifyFailure } from "../../../api/failure";
import { requestFreeSubscription } from "../../../api/public";
import { succeed, warnPublic } from "../../../lib/notify";

/**
 * 'Free Subscribe Request' (POST /users/free/subscribe/process with `email`). product.md §8:
 * success 1 → success toast with the server message (top-right, 2 s) and `onSent`; any other
 * success → the server message as a warning toast (bottom-right, 3 s); no answer → 'Failed to
 * send email.'; an answer without a usable message → 'Failed to start the free subsription
 * process. Please try again.' (spelling as in the spec; catalogue "public", `freeChat.*`).
 */
export function useFreeSubscribe(onSent: () => void): UseMutationResult<Envelope, Error, string> {
  const { t } = useTranslation("public");
  return useMutation({
    mutationFn: requestFreeSubscription,
    meta: { silent: true },
    onSuccess: (answer) => {
      if (answer.success === 1) {
        succeed(answer.message || t("freeChat.checkEmail"));
        onSent();
      } else {
        warnPublic(answer.message || t("freeChat.otherFailure"));
      }
    },
    onError: (error) => {
      const kind = classifyFailure(error);
      if (kind === "network") warnPublic(t("freeChat.networkFailure"));
      else if (kind === "other") warnPublic(t("freeChat.otherFailure"));
    },
  });
}
