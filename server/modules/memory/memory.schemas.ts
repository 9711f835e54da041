// Request shapes of the memory routes (a chat's remembered facts, deleting one), checked with zod.
import { z } from "zod";
import { uuidField } from "../../http/validate";

/** GET /api/chat/memories?id=: the chat whose memories are listed. */
export const ListQuery = z.object({ id: z.string().max(100).default("") });
/** DELETE /api/chat/memories/?id=: the memory to delete. */
export const DeleteQuery = z.object({ id: uuidField("the memory id") });
/** GET /api/chat/recall?id=: the chat (a character or group id) whose recall setting is read. */
export const RecallQuery = z.object({ id: z.string().max(100).default("") });
/**
 * POST /api/chat/recall {id, enabled}: switches a chat's recall on or off; `enabled` a JSON
 * boolean, or "1"/"0" ("true"/"false") in a form body as the spec's other switches.
 */
export const RecallBody = z.object({
  id: z.string().max(100).default(""),
  enabled: z.union(
    [z.boolean(), z.enum(["1", "0", "true", "false"]).transform((v) => v === "1" || v === "true")],
    {
      error: "Choose on or off.",
    },
  ),
});
