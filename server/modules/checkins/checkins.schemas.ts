// Request shapes of the check-in routes (a character's state, choosing it), checked with zod.
import { z } from "zod";

const CharacterId = z
  .string()
  .trim()
  .min(1, "The character is required.")
  .max(100, "The character id is not valid.");
/** GET /api/chat/checkins?id=: the character whose check-ins are asked. */
export const StateQuery = z.object({ id: CharacterId });
/** POST /api/chat/checkins: the character, "1" (on) or "0" (off), and the browser's IANA time zone. */
export const ChooseBody = z.object({
  id: CharacterId,
  enabled: z.enum(["0", "1"], { message: "Check-ins are turned on with 1 and off with 0." }),
  timeZone: z.string().trim().max(64).default(""),
});
