// Turning the user's search text into a safe full-text query (SQLite FTS5, PostgreSQL tsquery), and a marked snippet into offsets.

/** The most words of a query that are searched (the rest are ignored). */
const MAX_TERMS = 12;
/** Marks the start and the end of a match in the databases' snippets (never in stored text's meaning). */
export const MARK_START = "\u0002";
export const MARK_END = "\u0003";

/**
 * The words of a query: runs of letters and digits, lower case, at most MAX_TERMS. Everything
 * else (quotes, `*`, `-`, `:`, parentheses, NEAR, AND/OR as operators) is only a separator,
 * so no query syntax of either database reaches it.
 */
export function searchTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_TERMS);
}

/**
 * The FTS5 MATCH expression of the terms: each a quoted string (inner quotes doubled) matched as
 * a prefix, all required: `"word"* "other"*`. The terms are letters and digits only, the quoting
 * is a second guard.
 */
export function ftsMatch(terms: string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"*`).join(" ");
}

/**
 * The PostgreSQL to_tsquery text of the terms ('simple' configuration): each quoted, matched as a
 * prefix, all required: `'word':* & 'other':*`.
 */
export function tsQuery(terms: string[]): string {
  return terms.map((term) => `'${term.replaceAll("'", "''").replaceAll("\\", "\\\\")}':*`).join(" & ");
}

/**
 * A snippet with MARK_START/MARK_END around its matches as plain text and the matches' offsets
 * ([start, end) in UTF-16 code units). Unbalanced marks are dropped.
 */
export function parseMarked(marked: string): { snippet: string; marks: Array<[number, number]> } {
  let snippet = "";
  const marks: Array<[number, number]> = [];
  let start = -1;
  for (const char of marked) {
    if (char === MARK_START) start = snippet.length;
    else if (char === MARK_END) {
      if (start >= 0 && snippet.length > start) marks.push([start, snippet.length]);
      start = -1;
    } else snippet += char;
  }
  return { snippet, marks };
}
