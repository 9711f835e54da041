import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Envelope } from "../../../../common/api";
import { classifyFailure } from "../../../api/failure";
import { type ContactMessage, contactAdmin } from "../../../api/public";
import { succeed, warnPublic } from "../../../lib/notify";

/**
 * Sends the contact form (POST /contact with `name`, `email`, `subject`, `message`). product.md §2, 8:
 * success 1 → success toast with the server message and `onSent` (the page clears the form);
 * other success → the server message as a warning toast; no usable answer → 'Failed to
 * contact admin.' (catalogue "public", `contact.failure`).
 */
export function useContactAdmin(onSent: () => void): UseMutationResult<Envelope, Error, ContactMessage> {
  const { t } = useTranslation("public");
  return useMutation({
    mutationFn: contactAdmin,
    meta: { silent: true },
    onSuccess: (answer) => {
      if (answer.success === 1) {
        succeed(answer.message || t("contact.sent"));
        onSent();
      } else {
        warnPublic(answer.message || t("contact.failure"));
      }
    },
    onError: (error) => {
      if (classifyFailure(error) !== "handled") warnPublic(t("contact.failure"));
    },
  });
}
