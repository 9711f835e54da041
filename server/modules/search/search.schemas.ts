// Request shape of message search (GET /api/search), checked with zod.
import { z } from "zod";
import { SEARCH_QUERY_MAX } from "../../../common/search";

/**
 * GET /api/search?q=&chat=: `q` the words, trimmed, 1..SEARCH_QUERY_MAX characters; `chat`
 * (optional) a character or group id to search only that chat.
 */
export const SearchQuery = z.object({
  q: z
    .string({ error: "The search text is required." })
    .trim()
    .min(1, "The search text is required.")
    .max(SEARCH_QUERY_MAX, `The search text must be at most ${SEARCH_QUERY_MAX} characters.`),
  chat: z
    .string()
    .trim()
    .max(100, "The chat id is not valid.")
    .optional()
    .transform((value) => (value === "" ? undefined : value)),
});
