// The prompt inspector's contract as zod schemas: what a reply's prompt was made of (GET /api/chat/prompt), shared by the server and the SPA.
import { z } from "zod";
import { Envelope } from "./envelope";

/**
 * One part of a reply's prompt, in prompt order (the layout rule of server/modules/prompt/prompt.ts):
 * the system prompt's sections, the history kept, the turn's note's sections, the author's note,
 * and the chat template's overhead.
 */
export const PromptPartKind = z
  .enum([
    "character",
    "lore_constant",
    "facts_settled",
    "summary",
    "group",
    "rules",
    "history",
    "sender",
    "facts_recent",
    "lore_triggered",
    "recalled",
    "authors_note",
    "template",
  ])
  .meta({ id: "PromptPartKind", description: "One part of a reply's prompt, in prompt order." });
export type PromptPartKind = z.infer<typeof PromptPartKind>;

/** A part and its tokens; the parts' tokens add up to `PromptInspection.promptTokens` exactly. */
export const PromptPart = z
  .object({
    kind: PromptPartKind,
    /** Tokens the part adds to the prompt (the model's counter). */
    tokens: z.number().describe("Tokens the part adds to the prompt (the model's counter)."),
  })
  .meta({ id: "PromptPart", description: "A part of a reply's prompt and its tokens." });
export type PromptPart = z.infer<typeof PromptPart>;

/** Why a lorebook entry was put in the prompt. */
export const LoreFired = z
  .object({
    /** The entry's name, else its comment, else the start of its content. */
    name: z.string().describe("The entry's name, else its comment, else the start of its content."),
    /** "system": a constant entry in the system prompt; "note": triggered, in the turn's note. */
    place: z
      .enum(["system", "note"])
      .describe('"system": a constant entry in the system prompt; "note": triggered, in the turn\'s note.'),
    /** The primary key found; absent for a constant entry. */
    key: z.string().optional().describe("The primary key found; absent for a constant entry."),
    /** The secondary key found (a selective entry). */
    secondaryKey: z.string().optional().describe("The secondary key found (a selective entry)."),
    /**
     * Where the key was found: "message" (one of the newest messages scanned) or "lore" (another
     * entry's content, recursive scanning).
     */
    foundIn: z
      .enum(["message", "lore"])
      .optional()
      .describe('Where the key was found: "message" (a newest message scanned) or "lore" (another entry).'),
    /** With "message": which one, counted from the newest (0: the newest message). */
    messageFromEnd: z
      .number()
      .optional()
      .describe('With "message": which one, counted from the newest (0: the newest message).'),
  })
  .meta({ id: "LoreFired", description: "Why a lorebook entry was put in the prompt." });
export type LoreFired = z.infer<typeof LoreFired>;

/** Why an earlier message was recalled into a reply's prompt. */
export const RecallReason = z
  .enum(["match", "neighbour"])
  .meta({ id: "RecallReason", description: "Why an earlier message was recalled into a reply's prompt." });
export type RecallReason = z.infer<typeof RecallReason>;

/** One earlier message recalled into a reply's prompt (in the order the prompt gives them: oldest first). */
export const RecalledMessage = z
  .object({
    /** The history entry that holds it (a jump target: the chat's message id). */
    entryId: z.string().describe("The history entry that holds it (a jump target: the chat's message id)."),
    /** "user": the user's message of the entry; "reply": the character's reply. */
    side: z
      .enum(["user", "reply"])
      .describe('"user": the user\'s message of the entry; "reply": the character\'s reply.'),
    /** When it was sent, epoch ms. */
    time: z.number().describe("When it was sent, epoch ms."),
    /** Who said it, as the prompt names them. */
    speaker: z.string().describe("Who said it, as the prompt names them."),
    /** Its text as the prompt carries it (cut for storage when long; see `truncated`). */
    text: z.string().describe("Its text as the prompt carries it (cut for storage when long)."),
    /** Tokens it adds to the prompt (its line, date and speaker included). */
    tokens: z.number().describe("Tokens it adds to the prompt (its line, date and speaker included)."),
    /** "match": found by the search; "neighbour": next to a match, for its context. */
    why: RecallReason.describe(
      '"match": found by the search; "neighbour": next to a match, for its context.',
    ),
    /** The query's words it holds (stemmed forms as searched); empty for a neighbour. */
    terms: z
      .array(z.string())
      .describe("The query's words it holds (stemmed forms as searched); empty for a neighbour."),
    /** Ranked by: "words" (full-text search), "meaning" (embeddings), or both (fused). */
    by: z
      .array(z.enum(["words", "meaning"]))
      .describe('Ranked by: "words" (full-text search), "meaning" (embeddings), or both (fused).'),
  })
  .meta({ id: "RecalledMessage", description: "One earlier message recalled into a reply's prompt." });
export type RecalledMessage = z.infer<typeof RecalledMessage>;

/** Recall's account of one reply's prompt. */
export const RecallInspection = z
  .object({
    /** False when the chat's recall setting is off (then nothing is recalled). */
    enabled: z.boolean().describe("False when the chat's recall setting is off (then nothing is recalled)."),
    /** The search's words, as built from the new message and the recent exchanges. */
    query: z
      .array(z.string())
      .describe("The search's words, as built from the new message and the recent exchanges."),
    /** Tokens recall was allowed (it scales with the context window). */
    budget: z.number().describe("Tokens recall was allowed (it scales with the context window)."),
    /** Milliseconds the search and the choice took on the server. */
    ms: z.number().describe("Milliseconds the search and the choice took on the server."),
    messages: z.array(RecalledMessage),
  })
  .meta({ id: "RecallInspection", description: "Recall's account of one reply's prompt." });
export type RecallInspection = z.infer<typeof RecallInspection>;

/** What a reply's prompt was made of, as stored with the reply. */
export const PromptInspection = z
  .object({
    /** The parts in prompt order (parts of one kind summed where the kind comes back). */
    parts: z
      .array(PromptPart)
      .describe("The parts in prompt order (parts of one kind summed where the kind comes back)."),
    /** The prompt's tokens as budgeted: the sum of `parts` (template overhead included). */
    promptTokens: z.number().describe("The prompt's tokens as budgeted: the sum of `parts`."),
    /** The model's context window, tokens. */
    contextWindow: z.number().describe("The model's context window, tokens."),
    /** Tokens kept free for the reply. */
    replyTokens: z.number().describe("Tokens kept free for the reply."),
    /** The history read (exchanges after the summary point) and how much of it the prompt kept. */
    history: z
      .object({ exchanges: z.number(), kept: z.number() })
      .describe("The history read (exchanges after the summary point) and how much of it the prompt kept."),
    /** The lorebook entries in the prompt, in prompt order, and why. */
    lore: z.array(LoreFired).describe("The lorebook entries in the prompt, in prompt order, and why."),
    /** What memory gave: facts settled at the summary point, recent ones, the summary's length. */
    memory: z
      .object({ settledFacts: z.number(), recentFacts: z.number(), summaryChars: z.number() })
      .describe("What memory gave: facts settled at the summary point, recent ones, the summary's length."),
    /** Recall: the earlier messages of the chat searched for this reply and put in the turn's note. */
    recall: RecallInspection.optional().describe(
      "Recall: the earlier messages of the chat searched for this reply and put in the turn's note.",
    ),
    /** Set when texts were cut to keep the stored inspection small (counts are kept). */
    truncated: z
      .boolean()
      .optional()
      .describe("Set when texts were cut to keep the stored inspection small (counts are kept)."),
  })
  .meta({
    id: "PromptInspection",
    description: "What a reply's prompt was made of, as stored with the reply.",
  });
export type PromptInspection = z.infer<typeof PromptInspection>;

/**
 * GET /api/chat/prompt?id=<entry id>[&index=<swipe>]: the inspection of the entry's
 * reply (the chosen swipe when no index is given); `inspection` null when none was kept
 * (a greeting, a reply written before inspections were stored, a picture's reply).
 */
export const PromptInspectionReply = Envelope.extend({
  inspection: PromptInspection.nullable().describe("null when none was kept."),
}).meta({ id: "PromptInspectionReply", description: "The answer of GET /api/chat/prompt." });
export type PromptInspectionReply = z.infer<typeof PromptInspectionReply>;
