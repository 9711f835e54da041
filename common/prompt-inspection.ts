// The prompt inspector's contract: what a reply's prompt was made of (GET /api/chat/prompt), shared by the server and the SPA.
import type { Envelope } from "./api";

/**
 * One part of a reply's prompt, in prompt order (the layout rule of server/modules/prompt/prompt.ts):
 * the system prompt's sections, the history kept, the turn's note's sections, the author's note,
 * and the chat template's overhead.
 */
export type PromptPartKind =
  | "character"
  | "lore_constant"
  | "facts_settled"
  | "summary"
  | "group"
  | "rules"
  | "history"
  | "sender"
  | "facts_recent"
  | "lore_triggered"
  | "recalled"
  | "authors_note"
  | "template";

/** A part and its tokens; the parts' tokens add up to `PromptInspection.promptTokens` exactly. */
export interface PromptPart {
  kind: PromptPartKind;
  /** Tokens the part adds to the prompt (the model's counter). */
  tokens: number;
}

/** Why a lorebook entry was put in the prompt. */
export interface LoreFired {
  /** The entry's name, else its comment, else the start of its content. */
  name: string;
  /** "system": a constant entry in the system prompt; "note": triggered, in the turn's note. */
  place: "system" | "note";
  /** The primary key found; absent for a constant entry. */
  key?: string;
  /** The secondary key found (a selective entry). */
  secondaryKey?: string;
  /**
   * Where the key was found: "message" (one of the newest messages scanned) or "lore" (another
   * entry's content, recursive scanning).
   */
  foundIn?: "message" | "lore";
  /** With "message": which one, counted from the newest (0: the newest message). */
  messageFromEnd?: number;
}

/** What a reply's prompt was made of, as stored with the reply. */
export interface PromptInspection {
  /** The parts in prompt order (parts of one kind summed where the kind comes back). */
  parts: PromptPart[];
  /** The prompt's tokens as budgeted: the sum of `parts` (template overhead included). */
  promptTokens: number;
  /** The model's context window, tokens. */
  contextWindow: number;
  /** Tokens kept free for the reply. */
  replyTokens: number;
  /** The history read (exchanges after the summary point) and how much of it the prompt kept. */
  history: { exchanges: number; kept: number };
  /** The lorebook entries in the prompt, in prompt order, and why. */
  lore: LoreFired[];
  /** What memory gave: facts settled at the summary point, recent ones, the summary's length. */
  memory: { settledFacts: number; recentFacts: number; summaryChars: number };
  /** Recall: the earlier messages of the chat searched for this reply and put in the turn's note. */
  recall?: RecallInspection;
  /** Set when texts were cut to keep the stored inspection small (counts are kept). */
  truncated?: boolean;
}

/** Why an earlier message was recalled into a reply's prompt. */
export type RecallReason = "match" | "neighbour";

/** One earlier message recalled into a reply's prompt (in the order the prompt gives them: oldest first). */
export interface RecalledMessage {
  /** The history entry that holds it (a jump target: the chat's message id). */
  entryId: string;
  /** "user": the user's message of the entry; "reply": the character's reply. */
  side: "user" | "reply";
  /** When it was sent, epoch ms. */
  time: number;
  /** Who said it, as the prompt names them. */
  speaker: string;
  /** Its text as the prompt carries it (cut for storage when long; see `truncated`). */
  text: string;
  /** Tokens it adds to the prompt (its line, date and speaker included). */
  tokens: number;
  /** "match": found by the search; "neighbour": next to a match, for its context. */
  why: RecallReason;
  /** The query's words it holds (stemmed forms as searched); empty for a neighbour. */
  terms: string[];
  /** Ranked by: "words" (full-text search), "meaning" (embeddings), or both (fused). */
  by: Array<"words" | "meaning">;
}

/** Recall's account of one reply's prompt. */
export interface RecallInspection {
  /** False when the chat's recall setting is off (then nothing is recalled). */
  enabled: boolean;
  /** The search's words, as built from the new message and the recent exchanges. */
  query: string[];
  /** Tokens recall was allowed (it scales with the context window). */
  budget: number;
  /** Milliseconds the search and the choice took on the server. */
  ms: number;
  messages: RecalledMessage[];
}

/**
 * GET /api/chat/prompt?id=<entry id>[&index=<swipe>]: the inspection of the entry's
 * reply (the chosen swipe when no index is given); `inspection` null when none was kept
 * (a greeting, a reply written before inspections were stored, a picture's reply).
 */
export interface PromptInspectionReply extends Envelope {
  inspection: PromptInspection | null;
}
