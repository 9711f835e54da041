// Request shapes of the prompt inspector (validated by inspections.routes.ts before anything is read).
import { z } from "zod";
import { PromptInspectionReply } from "../../../common/api";
import { REPLY_SWIPES_MAX } from "../../../common/constants";
import { answers } from "../../http/route-schemas";
import { uuidField } from "../../http/validate";

/** GET /api/chat/prompt: the entry's id and, optionally, its reply version (default: the chosen one). */
export const PromptQuery = z.object({
  id: uuidField("the message id"),
  index: z.coerce
    .number({ error: "The version is not valid." })
    .int("The version is not valid.")
    .min(0, "The version is not valid.")
    .max(REPLY_SWIPES_MAX - 1, "The version is not valid.")
    .optional()
    .describe("0-based; default the chosen version"),
});

/** The route schema of GET /api/chat/prompt: its query and its documentation (docs/api.md). */
export const PromptRoute = {
  tags: ["Edits and swipes"],
  description:
    "`inspection`: the reply's prompt parts with their tokens, the lorebook entries fired and why, memory's share (common/prompt-inspection.ts), or null",
  "x-from": "ours",
  querystring: PromptQuery,
  response: answers(PromptInspectionReply),
};
