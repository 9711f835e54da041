// Request shapes of the memory routes (a chat's remembered facts, deleting one, the recall switch), checked with zod, and the answers they declare.
import { z } from "zod";
import { answers } from "../../http/route-schemas";
import { uuidField } from "../../http/validate";
import { msg, zodText } from "../../i18n/messages";

/** GET /api/chat/memories?id=: the chat whose memories are listed. */
export const ListQuery = z.object({ id: z.string().max(100).default("").describe("chat") });
/** DELETE /api/chat/memories/?id=: the memory to delete. */
export const DeleteQuery = z.object({ id: uuidField(msg("memory.term.memoryId")).describe("memoryUUID") });
/** GET /api/chat/recall?id=: the chat (a character or group id) whose recall setting is read. */
export const RecallQuery = z.object({
  id: z.string().max(100).default("").describe("chat: a character or group of the user"),
});
/**
 * POST /api/chat/recall {id, enabled}: switches a chat's recall on or off; `enabled` a JSON
 * boolean, or "1"/"0" ("true"/"false") in a form body as the spec's other switches.
 */
export const RecallBody = z.object({
  id: z.string().max(100).default(""),
  enabled: z
    .union([z.boolean(), z.enum(["1", "0", "true", "false"]).transform((v) => v === "1" || v === "true")], {
      error: zodText(msg("memory.chooseOff")),
    })
    .describe('true or false; in a form body "1" or "0"; else 400 "Choose on or off."'),
});

/**
 * The documentation of a memory route for the OpenAPI document (docs/api.md "Memory and
 * check-ins"): every one is ours; who may call it ("signed in") is written by `signedIn`.
 * @param description what the route answers (docs/api.md's Answers cell, markdown kept).
 * @param answer the whole answer's schema (the envelope with its `data`), its `response` at 200.
 */
export function memoryDoc<S extends z.ZodType>(description: string, answer: S) {
  return { tags: ["Memory and check-ins"], description, "x-from": "ours", response: answers(answer) };
}
