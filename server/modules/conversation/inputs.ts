// Shared request fields of a send: the client message id (a retry makes no second entry) and the `mute` flag.
import { z } from "zod";
import { msg, zodText } from "../../i18n/messages";

/**
 * Ours: the client's id of one send (a chat message, a picture request, a photo); a retry with the
 * same id never makes a second entry nor charges a second message. Letters, digits, '-' and '_',
 * at most 100; otherwise "The client message id is not valid.".
 */
export const ClientMessageId = z
  .string()
  .trim()
  .max(100, zodText(msg("conversation.clientMessageIdMustMost")))
  .regex(/^[\w-]*$/, zodText(msg("conversation.clientMessageIdNotValid")))
  .optional();

/** product.md §7 `mute` (chat/message, chat/request-photo, audio-message): "1" or "true" means the reply is not spoken. */
export function isMuted(mute: string | undefined): boolean {
  return mute === "1" || mute === "true";
}
