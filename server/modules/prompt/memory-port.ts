// What the chat engine and memory exchange: the facts remembered for a prompt, what memory is told after a reply.

/** What the character remembers about the user (memory), split by the chat's last summary point. */
export interface RememberedFacts {
  /** Facts settled at the last summary point, in a fixed order: part of the stable system prompt. */
  settled: string[];
  /** Facts learned since then, or older ones relevant to the newest words: the turn's note. */
  recent: string[];
}

/**
 * What memory is told after a reply (the chat engine's ReplyMemory port, filled by memory's
 * afterReply): where the user's words stand against the prompt, so facts are extracted before
 * they leave it.
 */
export interface AfterReplyInput {
  userId: string;
  userName: string;
  sessionId: string;
  /** Exchanges after the summary read for this reply's prompt. */
  exchanges: number;
  /** Those exchanges' order keys and user's words, oldest first. */
  window: ReadonlyArray<{ seq: number; message: string }>;
  /** How many of the newest of them the prompt carried. */
  kept: number;
  /** The prompt left older exchanges out (the token budget or the history limit). */
  full: boolean;
  /** The session's facts were extracted up to this order key. */
  factsUntilSeq: number;
}
