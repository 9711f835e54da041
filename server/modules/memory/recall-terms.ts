// Recall's query: the words of the new message (and, for a short one, of the recent exchanges) worth searching the chat for.

/** Most words a recall query searches. */
export const RECALL_TERMS_MAX = 16;
/** Below this many words of its own, a new message borrows words from the recent exchanges. */
const OWN_TERMS_ENOUGH = 2;

/**
 * Words that carry no topic (English function words, chat fillers and question words): they would
 * match most messages. Other languages' words pass; stemming and BM25's weighting handle them.
 */
const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any are aren as at be because been before being below " +
    "between both but by can cannot could couldn did didn do does doesn doing don down during each else ever few " +
    "for from further get gets got had hadn has hasn have haven having he her here hers herself him himself his how " +
    "i if in into is isn it its itself just let me more most much my myself no nor not now of off on once only or " +
    "other ought our ours ourselves out over own really same shan she should shouldn so some such than that the " +
    "their theirs them themselves then there these they this those through to too under until up us very was " +
    "wasn we were weren what when where which while who whom why will with won would wouldn you your yours " +
    "yourself yourselves ll re ve s t d m oh ok okay yeah yes hey hi hello wow lol haha hmm um uh well like " +
    "thing things stuff something anything everything kind sort lot lots tell told say said know think " +
    "go going gone went come came make made take took see saw want wanted one two way time day days " +
    "still even though many may might must shall"
  ).split(" "),
);

/** A text's words as recall reads them: runs of letters and digits, lower case, in order. */
export function lowerWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The words of a text worth searching for: runs of letters and digits, lower case, without stop
 * words and one-letter words, each once, in order of appearance. Letters and digits only, so no
 * full-text query syntax of either database can reach a query.
 */
export function contentWords(text: string): string[] {
  const words = lowerWords(text);
  const seen = new Set<string>();
  for (const word of words) {
    if (word.length < 2 || STOP_WORDS.has(word) || seen.has(word)) continue;
    seen.add(word);
  }
  return [...seen];
}

/**
 * The recall query of a reply: the new message's words first; when it has fewer than
 * OWN_TERMS_ENOUGH ("and then?", "what about her?"), the words of the recent exchanges, newest
 * first, fill it up, since a short follow-up is about what was just said. The speakers' names
 * are left out: people call each other by name all through a chat, so a name finds the messages
 * written to someone rather than what they said; so are `dateWords`, the words of a named period
 * (namedPeriod), which the messages' dates answer. At most RECALL_TERMS_MAX.
 * @param recent the recent exchanges' texts, newest first.
 */
export function recallQuery(
  newMessage: string,
  recent: readonly string[],
  names: readonly string[] = [],
  dateWords: readonly string[] = [],
): string[] {
  const skip = new Set([...names.flatMap((name) => contentWords(name)), ...dateWords]);
  const words = (text: string) => contentWords(text).filter((word) => !skip.has(word));
  const terms = words(newMessage);
  if (terms.length < OWN_TERMS_ENOUGH) {
    for (const text of recent) {
      for (const word of words(text)) if (!terms.includes(word)) terms.push(word);
      if (terms.length >= OWN_TERMS_ENOUGH * 2) break;
    }
  }
  return terms.slice(0, RECALL_TERMS_MAX);
}

/**
 * The query's words a text holds, for the inspector's "why": a word of the text counts when it
 * starts with the query word's stem-like prefix (the word less a plural or verb ending), as the
 * databases' stemmers would match "painting" for "painted" (approximate: display only).
 */
export function matchedTerms(text: string, terms: readonly string[]): string[] {
  const words = new Set(lowerWords(text));
  return terms.filter((term) => {
    const stem = term.length > 5 ? term.replace(/(ing|ed|es|s|ly)$/u, "") : term;
    for (const word of words) if (word.startsWith(stem)) return true;
    return false;
  });
}

const MONTH_NAMES = [
  ["january", "jan"],
  ["february", "feb"],
  ["march", "mar"],
  ["april", "apr"],
  ["may"],
  ["june", "jun"],
  ["july", "jul"],
  ["august", "aug"],
  ["september", "sep", "sept"],
  ["october", "oct"],
  ["november", "nov"],
  ["december", "dec"],
];
const MONTH_OF = new Map(MONTH_NAMES.flatMap((names, month) => names.map((name) => [name, month] as const)));
const DAY_MS = 86_400_000;
/** Days before a named day or month whose messages still count as about it (what was planned for it). */
const PERIOD_DAYS_BEFORE = 7;
/** Days after a named day or month whose messages still count as about it (what was told of it later). */
const PERIOD_DAYS_AFTER = 14;

/** A period the text names, epoch ms, and the words that named it. */
export interface NamedPeriod {
  from: number;
  to: number;
  words: string[];
}

/**
 * The period a message names by a month and a year ("in November 2022", "Nov 2022", "on 25
 * February, 2022", "May 8, 2023"), widened by PERIOD_DAYS_BEFORE and PERIOD_DAYS_AFTER: a chat
 * tells of a thing shortly before or after it happens. A month without a year, or a year alone, is
 * too wide to help. Dates are read as UTC, as recall's lines write them.
 * @returns undefined when no such period is named.
 */
export function namedPeriod(text: string): NamedPeriod | undefined {
  const words = lowerWords(text);
  for (let i = 0; i < words.length; i++) {
    const month = MONTH_OF.get(words[i]!);
    if (month === undefined) continue;
    // "25 February 2022", "February 25, 2022", "February 2022".
    const dayBefore = /^\d{1,2}$/.test(words[i - 1] ?? "") ? Number(words[i - 1]) : undefined;
    const dayAfter = /^\d{1,2}$/.test(words[i + 1] ?? "") ? Number(words[i + 1]) : undefined;
    const yearAt = [i + 1, i + 2].find((j) => /^(19|20)\d\d$/.test(words[j] ?? ""));
    if (yearAt === undefined) continue;
    const year = Number(words[yearAt]);
    const day = dayBefore ?? (yearAt === i + 2 ? dayAfter : undefined);
    const used = [words[i]!, words[yearAt]!];
    if (day !== undefined && day >= 1 && day <= 31) {
      used.push(String(day));
      const at = Date.UTC(year, month, day);
      return {
        from: at - PERIOD_DAYS_BEFORE * DAY_MS,
        to: at + (PERIOD_DAYS_AFTER + 1) * DAY_MS,
        words: used,
      };
    }
    return {
      from: Date.UTC(year, month, 1) - PERIOD_DAYS_BEFORE * DAY_MS,
      to: Date.UTC(year, month + 1, 1) + PERIOD_DAYS_AFTER * DAY_MS,
      words: used,
    };
  }
  return undefined;
}
