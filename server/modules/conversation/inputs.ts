import { z } from "zod";

/**
 * Ours: the client's id of one send (a chat message, a picture request, a photo); a retry with the
 * same id never makes a second entry nor charges a second message.
 */
export const ClientMessageId = z
  .string()
  .trim()
  .max(100)
  .regex(/^[\w-]*$/, "must be letters, digits, '-' or '_'")
  .optional();
