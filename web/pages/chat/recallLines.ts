// The prompt inspector's recall section in words and numbers: why a message was recalled, the tokens used, the jump to it.
import type { RecalledMessage, RecallInspection } from "../../../common/prompt-inspection";
import { JUMP_MAX_ENTRIES } from "./hooks/useChatHistory";
import type { MessageJump } from "./hooks/useMessageJump";
import { inspectorTexts } from "./inspectorTexts";

/**
 * Why a message was recalled, in the current language: "matched: word, word" (the query's words
 * it holds, as searched), "matched" when no word is listed, or "next to a match" for a neighbour;
 * then "· by meaning" when the embeddings ranked it (`by` includes "meaning").
 */
export function recallReason(message: RecalledMessage): string {
  const reason =
    message.why === "neighbour"
      ? inspectorTexts.recallNeighbour
      : message.terms.length > 0
        ? inspectorTexts.recallMatched(message.terms.join(", "))
        : inspectorTexts.recallMatchedPlain;
  return message.by.includes("meaning") ? `${reason} · ${inspectorTexts.recallByMeaning}` : reason;
}

/** Tokens the recalled messages add to the prompt: the sum of theirs (line, date and speaker included). */
export function recallTokens(recall: RecallInspection): number {
  return recall.messages.reduce((sum, message) => sum + message.tokens, 0);
}

/**
 * The chat jump (navigation state `{id, jump}`, see useMessageJump) to a recalled message. How
 * many entries are newer than it now is not known (the inspection was stored with the reply, and
 * the message is usually older than the pages loaded), so `newer` asks for the most a jump loads
 * (JUMP_MAX_ENTRIES); a message already loaded is scrolled to without loading anything.
 */
export function recallJump(message: RecalledMessage): MessageJump {
  return { entryId: message.entryId, side: message.side, newer: JUMP_MAX_ENTRIES };
}
