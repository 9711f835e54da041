// Sending the free subscription request (POST /users/free/subscribe/process) and its toasts (product.md §8).
import type { UseMutationResult } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Envelope } from "../../../../common/api";
import { requestFreeSubscription } from "../../../api/public";
import { usePublicRequest } from "../../../hooks/usePublicRequest";

/**
 * 'Free Subscribe Request' (POST /users/free/subscribe/process with `email`). product.md §8:
 * success 1 → success toast with the server message (top-right, 2 s) and `onSent`; any other
 * success → the server message as a warning toast (bottom-right, 3 s); no answer → 'Failed to
 * send email.'; an answer without a usable message → 'Failed to start the free subsription
 * process. Please try again.' (spelling as in the spec; catalogue "public", `freeChat.*`).
 */
export function useFreeSubscribe(onSent: () => void): UseMutationResult<Envelope, Error, string> {
  const { t } = useTranslation("public");
  return usePublicRequest(requestFreeSubscription, onSent, {
    sent: t("freeChat.checkEmail"),
    refused: t("freeChat.otherFailure"),
    failure: (_error, kind) => t(kind === "network" ? "freeChat.networkFailure" : "freeChat.otherFailure"),
  });
}
