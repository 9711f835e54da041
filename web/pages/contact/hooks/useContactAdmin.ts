import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { classifyFailure } from "../../../api/failure";
import { type ContactMessage, contactAdmin } from "../../../api/public";
import { succeed, warnPublic } from "../../../lib/notify";

/** spec 8: the contact form's failure text. */
export const CONTACT_FAILURE = "Failed to contact admin.";

/**
 * Sends the contact form (POST /contact with `name`, `email`, `subject`, `message`). spec 2, 8:
 * success 1 → success toast with the server message and `onSent` (the page clears the form);
 * other success → the server message as a warning toast; no usable answer → 'Failed to
 * contact admin.'.
 */
export function useContactAdmin(onSent: () => void): UseMutationResult<Envelope, Error, ContactMessage> {
  return useMutation({
    mutationFn: contactAdmin,
    meta: { silent: true },
    onSuccess: (answer) => {
      if (answer.success === 1) {
        succeed(answer.message || "Message sent.");
        onSent();
      } else {
        warnPublic(answer.message || CONTACT_FAILURE);
      }
    },
    onError: (error) => {
      if (classifyFailure(error) !== "handled") warnPublic(CONTACT_FAILURE);
    },
  });
}
