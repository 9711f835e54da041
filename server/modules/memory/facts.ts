// What memory's facts are: which of the user's messages may hold some, the words that match them to a message, and which of them a prompt carries.
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { RememberedFacts } from "../prompt/prompt";

/** Facts put into one prompt's turn note (relevant to the newest words), at most. */
export const FACTS_PER_NOTE = 3;
/** Settled facts in the stable system prompt, at most (the newest of them). */
export const FACTS_SETTLED = 12;

/** A fact as a prompt reads it: drawn from which chat and message, and when (epoch ms). */
export interface FactRow {
  fact: string;
  created_at: number;
  /** The chat session it was drawn from ("" for facts older than that). */
  session_id: string;
  /** The order key of the newest message it was drawn from (0: unknown). */
  source_seq: number;
}

const STOPWORDS = new Set(
  "the and you your for are was were with that this have has had not but what when where who how why can will would about from they them their there then than into out our ours just like very really also too its it's i'm im me my mine we he she his her him".split(
    " ",
  ),
);

/** Lower-case content words of a text (3+ letters, no stopwords), for relevance. */
export function keywords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']{3,}/gu) ?? [];
  return new Set(words.filter((w) => !STOPWORDS.has(w)).map((w) => w.replace(/'s$/, "")));
}

/**
 * Whether a message may tell something lasting about the user: it speaks of them in the first
 * person ("I", "my", "me", …). Others are not sent to the fact extractor, which saves a model call.
 */
export function mightHoldFacts(message: string): boolean {
  return (
    /\b(i|i'm|im|i've|i'd|my|me|mine|we|our)\b/i.test(message) && message.trim().split(/\s+/).length >= 3
  );
}

/** A user's message that may tell facts (not a greeting marker). */
export function holdsFacts(message: string): boolean {
  return message !== FIRST_MESSAGE_MARKER && mightHoldFacts(message);
}

/** The messages (with their order keys) of each character spoken to, in order. */
export function groupByCharacter(
  rows: Array<{ message: string; character_id: string; seq: number }>,
): Map<string, Array<{ message: string; seq: number }>> {
  const groups = new Map<string, Array<{ message: string; seq: number }>>();
  for (const row of rows) {
    const message = { message: row.message, seq: Number(row.seq) };
    const list = groups.get(row.character_id);
    if (list) list.push(message);
    else groups.set(row.character_id, [message]);
  }
  return groups;
}

/**
 * A character's facts about the user (`rows`, newest first) split for a reply's prompt
 * (server/modules/prompt/prompt.ts has the layout):
 * - `settled`: the facts known at the chat's last summary point (drawn from messages the summary
 *   covers, or from elsewhere before that point; the chat's start when it has no summary), the
 *   newest FACTS_SETTLED of them, oldest first: they stay the same from turn to turn;
 * - `recent`: of the others, at most FACTS_PER_NOTE that share a keyword with `message`, ranked
 *   by shared keywords (a fact about the user's name a little higher), then recency. Facts
 *   drawn from this chat since the summary point are told by their messages, still in the
 *   prompt's history: the turn's note repeats them only when they bear on the newest words,
 *   so it stays short (every turn re-reads it).
 * @param session the chat: its id, summary point (order key, µs) and creation time (epoch ms).
 */
export function splitPromptFacts(
  rows: readonly FactRow[],
  message: string,
  session: { id: string; summary_until_seq: number; created_at: number },
): RememberedFacts {
  const pointMs = session.summary_until_seq > 0 ? session.summary_until_seq / 1000 : session.created_at;
  const isSettled = (row: FactRow) =>
    row.session_id === session.id
      ? row.source_seq > 0 && row.source_seq <= session.summary_until_seq
      : row.created_at <= pointMs;
  const settled = rows.filter(isSettled).slice(0, FACTS_SETTLED);
  const inSettled = new Set(settled);
  const query = keywords(message);
  const recent = rows
    .filter((row) => !inSettled.has(row))
    .map((row, index) => {
      let shared = 0;
      for (const w of keywords(row.fact)) if (query.has(w)) shared += 1;
      const score = shared + (shared > 0 && /\bname\b/i.test(row.fact) ? 0.5 : 0);
      return { fact: row.fact, score, index };
    })
    .filter((r) => r.score >= 1)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, FACTS_PER_NOTE)
    .map((r) => r.fact);
  return { settled: settled.reverse().map((row) => row.fact), recent };
}
