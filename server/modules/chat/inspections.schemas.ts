// Request shapes of the prompt inspector (validated by inspections.routes.ts before anything is read).
import { z } from "zod";
import { REPLY_SWIPES_MAX } from "../../../common/constants";
import { uuidField } from "../../http/validate";

/** GET /api/chat/prompt: the entry's id and, optionally, its reply version (default: the chosen one). */
export const PromptQuery = z.object({
  id: uuidField("the message id"),
  index: z.coerce
    .number({ error: "The version is not valid." })
    .int("The version is not valid.")
    .min(0, "The version is not valid.")
    .max(REPLY_SWIPES_MAX - 1, "The version is not valid.")
    .optional(),
});
