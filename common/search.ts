// The answer of message search (GET /api/search): one found message with its marked snippet.

/** The most characters a search query may have (after trimming). */
export const SEARCH_QUERY_MAX = 200;
/** The most results one search answers, newest first. */
export const SEARCH_RESULTS_MAX = 50;

/** One message found by search (product.md "Search"). */
export interface SearchHit {
  /** The chat: a character id, or a group id when `isGroup` (what /chat's navigation state `id` takes). */
  chatId: string;
  isGroup: boolean;
  /** The character of the entry (the one who replies), and its name. */
  characterId: string;
  characterName: string;
  /** The history entry (chatHistoryUUID). */
  entryId: string;
  /** Whose words matched: the user's message or the character's reply. */
  side: "user" | "reply";
  /** When the message was sent (user) or the reply written, epoch ms. */
  time: number;
  /** How many entries of the chat are newer than this one (the jump loads the history through it). */
  newer: number;
  /** Plain text around the match (never HTML); "…" where it was cut. */
  snippet: string;
  /** The matched parts of `snippet`: [start, end) offsets in UTF-16 code units, in order. */
  marks: Array<[number, number]>;
}
