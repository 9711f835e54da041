import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { classifyFailure } from "../../../api/failure";
import { requestFreeSubscription } from "../../../api/public";
import { succeed, warnPublic } from "../../../lib/notify";

/** spec 8 texts of the free subscribe request (spelling as in the spec). */
export const FREE_SUBSCRIBE_NETWORK_FAILURE = "Failed to send email.";
export const FREE_SUBSCRIBE_OTHER_FAILURE = "Failed to start the free subsription process. Please try again.";

/**
 * 'Free Subscribe Request' (POST /users/free/subscribe/process with `email`). spec 8:
 * success 1 → success toast with the server message (top-right, 2 s) and `onSent`; any other
 * success → the server message as a warning toast (bottom-right, 3 s); no answer → 'Failed to
 * send email.'; an answer without a usable message → 'Failed to start the free subsription
 * process. Please try again.'.
 */
export function useFreeSubscribe(onSent: () => void): UseMutationResult<Envelope, Error, string> {
  return useMutation({
    mutationFn: requestFreeSubscription,
    meta: { silent: true },
    onSuccess: (answer) => {
      if (answer.success === 1) {
        succeed(answer.message || "Please check your email.");
        onSent();
      } else {
        warnPublic(answer.message || FREE_SUBSCRIBE_OTHER_FAILURE);
      }
    },
    onError: (error) => {
      const kind = classifyFailure(error);
      if (kind === "network") warnPublic(FREE_SUBSCRIBE_NETWORK_FAILURE);
      else if (kind === "other") warnPublic(FREE_SUBSCRIBE_OTHER_FAILURE);
    },
  });
}
