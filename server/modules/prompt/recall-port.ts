// What recall hands the prompt: earlier messages of the chat that match the new message, ranked, with their neighbours.

/** One side of a history entry: the user's message or the reply. */
export interface RecallMessage {
  entryId: string;
  /** The entry's order key (epoch µs). */
  seq: number;
  side: "user" | "reply";
  text: string;
  /** When it was sent, epoch ms. */
  time: number;
  /** The entry's character (the speaker of a reply). */
  characterId: string;
}

/** A message the search found, with the messages just before and after it in the chat. */
export interface RecallMatch extends RecallMessage {
  /** The query's words it holds (display only). */
  terms: string[];
  /** How it was ranked: by words (full text), by meaning (embeddings), or both (fused). */
  by: Array<"words" | "meaning">;
  /** The message before it in the chat (none at the chat's start). */
  before?: RecallMessage;
  /** The message after it (none at the chat's end). */
  after?: RecallMessage;
}

/** What the search found for one reply, best first. */
export interface RecallFound {
  /** False when the chat's recall is switched off (then `matches` is empty). */
  enabled: boolean;
  query: string[];
  matches: RecallMatch[];
  /** Milliseconds the search took. */
  ms: number;
}
