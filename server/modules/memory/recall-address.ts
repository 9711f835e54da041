// Recall for a question about a named person ("How many tournaments has Nate won?"): what that person said first, not what was said to them.
import { escapeRegExp } from "../../../common/regex";
import type { RecallMatch, RecallMessage } from "../prompt/recall-port";

/**
 * How many places down a match goes when it speaks to the person the question names ("Congrats,
 * Nate!"): it was said to them, by someone else, so it rarely holds what they did or said (about
 * 1% of such matches are a LoCoMo question's evidence, 7-15% of the others among the best five),
 * though its neighbours often do (it answers them), so it stays near enough for them to go in.
 * Measured with bench/memory-recall.bench.ts (LoCoMo, SQLite): 8 to 20 about the same, 12 best.
 */
export const ADDRESSED_DEMOTION = 12;

/** First-person words: the speaker tells of themselves ("I won my fourth tournament"). */
const FIRST_PERSON = /\b(i|me|my|mine|we|us|our|ours)\b/iu;
/** Second-person words: the speaker tells the one they speak to of them ("you did great!"). */
const SECOND_PERSON = /\b(you|your|yours)\b/iu;
/** Words before a name that make it the one spoken to ("Hey Nate", "Thanks Nate"). */
const CALLING = "hey|hi|hello|thanks|thank you|congrats|congratulations|wow|oh|yeah|yes|sorry|go|dear";

/**
 * The names a text writes: capitalised words that do not start a sentence ("How many tournaments
 * has Nate won?": Nate), each once, in order. None when the text is written in lower case.
 */
export function namesIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?<![.!?]\s*|^\s*)\b(\p{Lu}\p{Ll}+)\b/gu)) found.add(match[1]!);
  return [...found];
}

/**
 * What tells that a text speaks to one of `names` by name: the name set off by a comma or ending
 * a clause, or after a greeting ("Way to go, Nate!", "Thanks Nate for…", "Nate, look").
 * @returns undefined when there are no names.
 */
function addressing(names: readonly string[]): RegExp | undefined {
  if (names.length === 0) return undefined;
  const name = `(?:${names.map(escapeRegExp).join("|")})`;
  return new RegExp(`(^|[,.!?]\\s*|\\b(${CALLING})\\s*,?\\s*)${name}\\b|\\b${name}\\s*[,!?]`, "iu");
}

/** Whether a text speaks to one of `names` by name (addressing). */
export function addresses(text: string, names: readonly string[]): boolean {
  return addressing(names)?.test(text) ?? false;
}

/**
 * The matches reordered for a question about a person it names in the third person ("What recipes
 * has Joanna made?"), which the person's own words answer:
 * - a match that speaks to the person by name goes ADDRESSED_DEMOTION places down (its neighbours
 *   with it);
 * - a match that tells of its speaker ("I", "my") and not of the one spoken to ("you") goes in
 *   without its neighbours: it says the thing itself (its neighbours are a LoCoMo question's
 *   evidence about 1% of the time, against 6-7% for a match that speaks to someone), so their
 *   budget goes to more matches;
 * - a neighbour that speaks to the person by name is left out (it was said to them).
 * Unchanged when the question names no one, or speaks of "I" or "you" (the roles are then the
 * speakers' own).
 */
export function favourNamedOwnWords(matches: readonly RecallMatch[], question: string): RecallMatch[] {
  const names = namesIn(question);
  if (names.length === 0 || FIRST_PERSON.test(question) || SECOND_PERSON.test(question)) return [...matches];
  const toNamed = addressing(names)!;
  const saidToNamed = (text: string) => toNamed.test(text);
  const notToNamed = (message: RecallMessage | undefined) =>
    message && saidToNamed(message.text) ? undefined : message;
  const placed = matches.map((match, rank) => {
    if (saidToNamed(match.text)) return { match, at: rank + ADDRESSED_DEMOTION };
    const ownWords = FIRST_PERSON.test(match.text) && !SECOND_PERSON.test(match.text);
    return { match: ownWords ? { ...match, before: undefined, after: undefined } : match, at: rank };
  });
  // Array.prototype.sort is stable: a demoted match goes just ahead of the one ranked
  // ADDRESSED_DEMOTION below it (the matches between move up one each).
  return placed
    .sort((a, b) => a.at - b.at)
    .map(({ match }) => ({ ...match, before: notToNamed(match.before), after: notToNamed(match.after) }));
}
