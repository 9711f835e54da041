// The answer of message search (GET /api/search) as a zod schema: one found message with its marked snippet.
import { z } from "zod";

/** One message found by search (product.md "Search"). */
export const SearchHit = z
  .object({
    /** The chat: a character id, or a group id when `isGroup` (what /chat's navigation state `id` takes). */
    chatId: z.string().describe("The chat: a character id, or a group id when `isGroup`."),
    isGroup: z.boolean(),
    /** The character of the entry (the one who replies), and its name. */
    characterId: z.string().describe("The character of the entry (the one who replies)."),
    characterName: z.string(),
    /** The history entry (chatHistoryUUID). */
    entryId: z.string().describe("The history entry (chatHistoryUUID)."),
    /** Whose words matched: the user's message or the character's reply. */
    side: z
      .enum(["user", "reply"])
      .describe("Whose words matched: the user's message or the character's reply."),
    /** When the message was sent (user) or the reply written, epoch ms. */
    time: z.number().describe("When the message was sent (user) or the reply written, epoch ms."),
    /** How many entries of the chat are newer than this one (the jump loads the history through it). */
    newer: z.number().describe("How many entries of the chat are newer than this one."),
    /** Plain text around the match (never HTML); "…" where it was cut. */
    snippet: z.string().describe('Plain text around the match (never HTML); "…" where it was cut.'),
    /** The matched parts of `snippet`: [start, end) offsets in UTF-16 code units, in order. */
    marks: z
      .array(z.tuple([z.number(), z.number()]))
      .describe("The matched parts of `snippet`: [start, end) offsets in UTF-16 code units, in order."),
  })
  .meta({ id: "SearchHit", description: "One message found by search, with its marked snippet." });
export type SearchHit = z.infer<typeof SearchHit>;
