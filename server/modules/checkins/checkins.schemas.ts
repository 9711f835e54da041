// Request shapes of the check-in routes (a character's state, choosing it), checked with zod, the answers they declare, and the query read when a chat is opened.
import { z } from "zod";
import { answers } from "../../http/route-schemas";
import { msg, zodText } from "../../i18n/messages";

const CharacterId = z
  .string()
  .trim()
  .min(1, zodText(msg("checkins.characterRequired")))
  .max(100, zodText(msg("checkins.characterIdNotValid")));
/** GET /api/chat/checkins?id=: the character whose check-ins are asked. */
export const StateQuery = z.object({ id: CharacterId.describe("character") });
/** POST /api/chat/checkins: the character, "1" (on) or "0" (off), and the browser's IANA time zone. */
export const ChooseBody = z.object({
  id: CharacterId,
  enabled: z.enum(["0", "1"], { message: zodText(msg("checkins.checkInsTurned1Off")) }).describe("`0`/`1`"),
  timeZone: z.string().trim().max(64).default("").describe("IANA"),
});

/**
 * The query of a history read, as the opening-read hook of checkins.routes.ts sees it (parsed by
 * the history route, or raw): the chat's `id` ("" when not text) and the page's `offset` (absent,
 * or anything that reads "0" on the newest page). Never fails.
 */
export const OpeningReadQuery = z
  .object({ id: z.string().catch(""), offset: z.unknown() })
  .catch({ id: "", offset: undefined });

/**
 * The documentation of a check-in route for the OpenAPI document (docs/api.md "Memory and
 * check-ins"): every one is ours; who may call it ("signed in") is written by `signedIn`.
 * @param description what the route answers (docs/api.md's Answers cell, markdown kept).
 * @param answer the whole answer's schema (the envelope with its `data`), its `response` at 200.
 */
export function checkinsDoc<S extends z.ZodType>(description: string, answer: S) {
  return { tags: ["Memory and check-ins"], description, "x-from": "ours", response: answers(answer) };
}
