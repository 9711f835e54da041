// Sending the contact form (POST /contact) and its toasts (product.md §2, §8).
import type { UseMutationResult } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Envelope } from "../../../../common/api";
import { type ContactMessage, contactAdmin } from "../../../api/public";
import { usePublicRequest } from "../../../hooks/usePublicRequest";

/**
 * Sends the contact form (POST /contact with `name`, `email`, `subject`, `message`). product.md §2, 8:
 * success 1 → success toast with the server message and `onSent` (the page clears the form);
 * other success → the server message as a warning toast; no usable answer → 'Failed to
 * contact admin.' (catalogue "public", `contact.failure`).
 */
export function useContactAdmin(onSent: () => void): UseMutationResult<Envelope, Error, ContactMessage> {
  const { t } = useTranslation("public");
  const failure = t("contact.failure");
  return usePublicRequest(contactAdmin, onSent, {
    sent: t("contact.sent"),
    refused: failure,
    failure: () => failure,
  });
}
