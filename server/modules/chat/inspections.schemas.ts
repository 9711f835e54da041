// Request shapes of the prompt inspector (validated by inspections.routes.ts before anything is read).
import { z } from "zod";
import { PromptInspectionReply } from "../../../common/api";
import { REPLY_SWIPES_MAX } from "../../../common/constants";
import { answers } from "../../http/route-schemas";
import { uuidField } from "../../http/validate";
import { msg, zodText } from "../../i18n/messages";

/** GET /api/chat/prompt: the entry's id and, optionally, its reply version (default: the chosen one). */
export const PromptQuery = z.object({
  id: uuidField(msg("chat.term.messageId")),
  index: z.coerce
    .number({ error: zodText(msg("chat.versionNotValid")) })
    .int(zodText(msg("chat.versionNotValid")))
    .min(0, zodText(msg("chat.versionNotValid")))
    .max(REPLY_SWIPES_MAX - 1, zodText(msg("chat.versionNotValid")))
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
