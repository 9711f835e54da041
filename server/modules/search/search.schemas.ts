// Request shape of message search (GET /api/search), checked with zod, and its documentation and answer.
import { z } from "zod";
import { envelopeOf, SearchHit } from "../../../common/api";
import { SEARCH_QUERY_MAX } from "../../../common/search";
import { answers } from "../../http/route-schemas";
import { msg, zodText } from "../../i18n/messages";

/**
 * GET /api/search?q=&chat=: `q` the words, trimmed, 1..SEARCH_QUERY_MAX characters; `chat`
 * (optional) a character or group id to search only that chat.
 */
export const SearchQuery = z.object({
  q: z
    .string({ error: zodText(msg("search.searchTextRequired")) })
    .trim()
    .min(1, zodText(msg("search.searchTextRequired")))
    .max(SEARCH_QUERY_MAX, zodText(msg("search.searchTextMustMostCharacters", { SEARCH_QUERY_MAX })))
    .describe("1-200 characters"),
  chat: z
    .string()
    .trim()
    .max(100, zodText(msg("search.chatIdNotValid")))
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
