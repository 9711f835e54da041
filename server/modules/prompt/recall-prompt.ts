// Recall in the prompt: which of the found earlier messages fit the token budget, and how the turn's note tells them (by date and speaker).
import type { RecalledMessage } from "../../../common/prompt-inspection";
import type { RecallFound, RecallMatch, RecallMessage } from "./recall-port";

/** Recall's share of the context window: 1 000 tokens of a 4 096-token window (docs/features.md "Memory"). */
export const RECALL_WINDOW_SHARE = 1000 / 4096;
/** A recalled message longer than this many characters is cut (an imported 20 000-character one would fill the budget). */
export const RECALL_MESSAGE_CHARS = 700;
/** The best matches whose neighbours are added where they carry the context. */
export const NEIGHBOURS_OF_BEST = 20;
/** A neighbour is context: it is cut to this many characters (its start tells what it was about). */
const NEIGHBOUR_CHARS = 240;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Most tokens recall takes whatever the window: past a few thousand tokens of old messages a
 * prompt grows slower to read (and to cache) faster than it gains (a 16 384-token window reaches it).
 */
export const RECALL_MAX_TOKENS = 4000;

/** Recall's token budget for a context window: RECALL_WINDOW_SHARE of it, rounded down, at most RECALL_MAX_TOKENS. */
export function recallBudget(contextWindow: number): number {
  return Math.min(RECALL_MAX_TOKENS, Math.floor(contextWindow * RECALL_WINDOW_SHARE));
}

/** A day as the prompt tells it: "8 May 2023" (UTC). */
export function recallDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** What the prompt is given of recall: the note's lines, and the inspector's account of each message. */
export interface RecallPacked {
  /** The turn note's lines (empty when nothing was recalled). */
  lines: string[];
  messages: RecalledMessage[];
}

/** A message chosen for the prompt, and why. */
interface Chosen {
  message: RecallMessage;
  line: string;
  tokens: number;
  why: "match" | "neighbour";
  terms: string[];
  by: Array<"words" | "meaning">;
}

const keyOf = (m: RecallMessage) => `${m.entryId}:${m.side}`;

/**
 * Chooses the found messages that fit `budget` tokens and writes them for the turn's note, oldest
 * first under a line per day ("8 May 2023:"), each as "Speaker: text". Matches go in rank order;
 * each of the best NEIGHBOURS_OF_BEST is followed by its neighbours (neighboursOf, cut to
 * NEIGHBOUR_CHARS) when they fit. A
 * message of an entry in `exclude` (the history the prompt already carries) is never repeated.
 * A message too long for what is left is skipped, and a shorter one after it may still go in.
 * @param speaker the name the prompt gives the message's author.
 */
export function packRecall(
  found: RecallFound,
  options: {
    budget: number;
    exclude: ReadonlySet<string>;
    countTokens: (text: string) => number;
    speaker: (message: RecallMessage) => string;
  },
): RecallPacked {
  const { exclude, countTokens } = options;
  const chosen = new Map<string, Chosen>();
  const header = "Earlier in this chat (recalled):";
  let left = options.budget - countTokens(header) - 2;
  const days = new Set<string>();
  const take = (message: RecallMessage, why: Chosen["why"], terms: string[], by: Chosen["by"]) => {
    if (!message.text.trim() || exclude.has(message.entryId) || chosen.has(keyOf(message))) return;
    const text = cut(
      message.text.replace(/\s+/g, " ").trim(),
      why === "neighbour" ? NEIGHBOUR_CHARS : RECALL_MESSAGE_CHARS,
    );
    const line = `${options.speaker(message)}: ${text}`;
    const day = recallDate(message.time);
    // A new day's line costs about 6 tokens more.
    const tokens = countTokens(line) + 1 + (days.has(day) ? 0 : 6);
    if (tokens > left) return;
    left -= tokens;
    days.add(day);
    chosen.set(keyOf(message), { message, line, tokens, why, terms, by });
  };
  found.matches.forEach((match, rank) => {
    take(match, "match", match.terms, match.by);
    if (rank < NEIGHBOURS_OF_BEST && chosen.has(keyOf(match))) {
      for (const neighbour of neighboursOf(match)) take(neighbour, "neighbour", [], []);
    }
  });
  if (chosen.size === 0) return { lines: [], messages: [] };
  const ordered = [...chosen.values()].sort(
    (a, b) => a.message.seq - b.message.seq || (a.message.side === "user" ? -1 : 1),
  );
  const lines = [header];
  let lastDay = "";
  for (const item of ordered) {
    const day = recallDate(item.message.time);
    if (day !== lastDay) lines.push(`${day}:`);
    lastDay = day;
    lines.push(item.line);
  }
  const messages = ordered.map(
    (item): RecalledMessage => ({
      entryId: item.message.entryId,
      side: item.message.side,
      time: item.message.time,
      speaker: options.speaker(item.message),
      text: item.line.slice(options.speaker(item.message).length + 2),
      tokens: item.tokens,
      why: item.why,
      terms: item.terms,
      by: item.by,
    }),
  );
  return { lines, messages };
}

/**
 * The neighbours of a match: the message before it (what a reply answers, or what a line follows
 * on from) and the message after it (the answer to a question, or what came of a line). Measured
 * on LoCoMo (docs/benchmarks.md "Memory recall"): both neighbours of the best matches recall more
 * than either alone or a rule on questions and short lines.
 */
function neighboursOf(match: RecallMatch): RecallMessage[] {
  return [match.before, match.after].filter((m): m is RecallMessage => m !== undefined);
}

/** The text cut to RECALL_MESSAGE_CHARS at a word, with "…" when cut. */
function cut(text: string, max = RECALL_MESSAGE_CHARS): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const space = head.lastIndexOf(" ");
  return `${space > max / 2 ? head.slice(0, space) : head}…`;
}
