// Shared request fields of a send: the client message id (a retry makes no second entry) and the `mute` flag.
import { z } from "zod";

/**
 * Ours: the client's id of one send (a chat message, a picture request, a photo); a retry with the
 * same id never makes a second entry nor charges a second message. Letters, digits, '-' and '_',
 * at most 100; otherwise "The client message id is not valid.".
 */
export const ClientMessageId = z
  .string()
  .trim()
  .max(100, "The client message id must be at most 100 characters.")
  .regex(/^[\w-]*$/, "The client message id is not valid.")
  .optional();

/** product.md §7 `mute` (chat/message, chat/request-photo, audio-message): "1" or "true" means the reply is not spoken. */
export function isMuted(mute: string | undefined): boolean {
  return mute === "1" || mute === "true";
}
