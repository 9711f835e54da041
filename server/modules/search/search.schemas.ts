// Request shape of message search (GET /api/search), checked with zod, and its documentation and answer.
import { z } from "zod";
import { envelopeOf, SearchHit } from "../../../common/api";
import { SEARCH_QUERY_MAX } from "../../../common/search";
import { answers } from "../../http/route-schemas";

/**
 * GET /api/search?q=&chat=: `q` the words, trimmed, 1..SEARCH_QUERY_MAX characters; `chat`
 * (optional) a character or group id to search only that chat.
 */
export const SearchQuery = z.object({
  q: z
    .string({ error: "The search text is required." })
    .trim()
    .min(1, "The search text is required.")
    .max(SEARCH_QUERY_MAX, `The search text must be at most ${SEARCH_QUERY_MAX} characters.`)
    .describe("1-200 characters"),
  chat: z
    .string()
    .trim()
    .max(100, "The chat id is not valid.")
    .optional()
    .transform((value) => (value === "" ? undefined : value))
    .describe("optional: a character or group id of the user; another's: 404"),
});

/** The documentation of GET /api/search for the OpenAPI document (docs/api.md "Search"). */
export const SearchDoc = {
  tags: ["Search"],
  description:
    "`data`: `SearchHit[]` (common/search.ts), the user's own messages and shown replies holding every word, newest first, at most 50, each with its snippet and match offsets",
  "x-from": "ours",
  response: answers(envelopeOf(SearchHit.array())),
};
