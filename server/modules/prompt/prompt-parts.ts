// The prompt inspector's account of a reply's prompt: its parts in order with their tokens, the lorebook entries fired and why, memory's share.
import type {
  LoreFired,
  PromptInspection,
  PromptPart,
  PromptPartKind,
} from "../../../common/prompt-inspection";
import type { LoreEntry, LoreMatch } from "./lorebook";
import type { RememberedFacts } from "./memory-port";
import type { PromptSection } from "./prompt-sections";

/** Longest name of a lorebook entry the inspection keeps, characters. */
const LORE_NAME_CHARS = 80;

/** What `inspectPrompt` is told of a prompt built by `buildChatPrompt` (prompt.ts). */
export interface PromptAccount {
  /** The system prompt's sections (their lines joined with newlines are the system prompt). */
  system: PromptSection[];
  /** The whole system prompt's tokens, as `buildChatPrompt` budgets them. */
  systemTokens: number;
  /** The turn's note's sections (inside square brackets they are the note); none: no note. */
  note: PromptSection[];
  /** The whole note's tokens, brackets included (0 when there is none). */
  noteTokens: number;
  /** The author's note's tokens as the prompt carries it; null when it has none. */
  authorsNoteTokens: number | null;
  /** How many of the history's messages the prompt keeps (before same-role joins). */
  historyMessages: number;
  /** Their texts' tokens, summed (template overhead not included). */
  historyTokens: number;
  /** Exchanges read and how many of the newest the prompt keeps. */
  exchanges: number;
  kept: number;
  contextWindow: number;
  replyTokens: number;
  /** Fixed tokens of each message's role markers (prompt.ts `TEMPLATE_TOKENS_PER_MESSAGE`). */
  templateTokensPerMessage: number;
  /** The model's counter; the inspector counts each section with it once, on its own. */
  countTokens: (text: string) => number;
  /** The lorebook's entries in the prompt (system prompt's, then the note's) and why each fired. */
  lore: { constant: LoreEntry[]; triggered: LoreEntry[]; why: ReadonlyMap<LoreEntry, LoreMatch> };
  facts?: RememberedFacts;
  summary: string;
}

/**
 * Shares `total` among `weights` in proportion, in whole numbers that add up to `total`
 * exactly (largest remainder: each gets the floor of its share, the ones with the largest
 * fractions one more). All weights 0: the last gets it all. Every share is >= 0 when `total` is.
 * @param weights non-negative; @returns one share per weight, in order.
 */
function apportion(weights: readonly number[], total: number): number[] {
  const sum = weights.reduce((n, w) => n + w, 0);
  if (weights.length === 0) return [];
  if (sum === total) return [...weights];
  if (sum <= 0) return weights.map((_, i) => (i === weights.length - 1 ? total : 0));
  const exact = weights.map((w) => (w * total) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((n, s) => n + s, 0);
  const byFraction = exact
    .map((x, i) => ({ i, fraction: x - Math.floor(x) }))
    .sort((a, b) => b.fraction - a.fraction || a.i - b.i);
  for (const { i } of byFraction) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

/**
 * Tokens each section adds to a text whose whole count is `wholeTokens`: each section is
 * counted once, on its own (`render` gives its text with what it carries of the whole, e.g. a
 * bracket), and the whole's tokens are shared among the sections in proportion to those counts
 * (`apportion`). So the sections' tokens add up to the whole text's tokens exactly, though a
 * tokenizer's counts of pieces do not add up (joins and merges across a boundary); when they
 * do, each section gets its own count. One pass over the text instead of a count per prefix.
 * @param render a section's text (`first`, `last`: its place among the sections).
 */
function sectionTokens(
  sections: readonly PromptSection[],
  wholeTokens: number,
  render: (lines: string[], first: boolean, last: boolean) => string,
  countTokens: (text: string) => number,
): PromptPart[] {
  const own = sections.map((section, i) =>
    countTokens(render(section.lines, i === 0, i === sections.length - 1)),
  );
  const shares = apportion(own, wholeTokens);
  return sections.map((section, i) => ({ kind: section.kind, tokens: shares[i]! }));
}

/** Adds `tokens` to the part of `kind`, where it is already, else as a new part at the end. */
function addPart(parts: PromptPart[], kind: PromptPartKind, tokens: number): void {
  const part = parts.find((p) => p.kind === kind);
  if (part) part.tokens += tokens;
  else parts.push({ kind, tokens });
}

/** A lorebook entry's name for people: its name, else its comment, else its content's start. */
function loreName(entry: LoreEntry): string {
  const name = entry.name.trim() || entry.comment.trim() || entry.content.trim();
  return name.length > LORE_NAME_CHARS ? `${name.slice(0, LORE_NAME_CHARS - 1)}…` : name;
}

function loreFired(entry: LoreEntry, place: "system" | "note", match: LoreMatch | undefined): LoreFired {
  const fired: LoreFired = { name: loreName(entry), place };
  if (!match || match.constant) return fired;
  return {
    ...fired,
    key: match.key,
    ...(match.secondaryKey === undefined ? {} : { secondaryKey: match.secondaryKey }),
    foundIn: match.foundIn,
    ...(match.messageFromEnd === undefined ? {} : { messageFromEnd: match.messageFromEnd }),
  };
}

/**
 * The prompt inspector's account of a reply's prompt: the parts in prompt order with their
 * tokens (the system prompt's sections, the history kept, the turn's note's sections, the
 * author's note, the template's overhead), which add up to `promptTokens`, the prompt's tokens
 * as `buildChatPrompt` budgets them: the system prompt, the kept history's messages, the note
 * and the author's note (each joined with one token more), and the per-message overhead.
 * The whole counts come from `buildChatPrompt`; only the sections are counted here, once each
 * (see `sectionTokens`).
 */
export function inspectPrompt(account: PromptAccount): PromptInspection {
  const count = account.countTokens;
  const merged: PromptPart[] = [];
  const systemRender = (lines: string[]) => lines.join("\n");
  for (const part of sectionTokens(account.system, account.systemTokens, systemRender, count)) {
    addPart(merged, part.kind, part.tokens);
  }
  if (account.historyMessages > 0) addPart(merged, "history", account.historyTokens);
  const noteRender = (lines: string[], first: boolean, last: boolean) =>
    `${first ? "[" : ""}${lines.join("\n")}${last ? "]" : ""}`;
  for (const part of sectionTokens(account.note, account.noteTokens, noteRender, count)) {
    addPart(merged, part.kind, part.tokens);
  }
  if (account.authorsNoteTokens !== null) addPart(merged, "authors_note", account.authorsNoteTokens);
  const messages = 1 + account.historyMessages;
  const joins = (account.note.length > 0 ? 1 : 0) + (account.authorsNoteTokens !== null ? 1 : 0);
  addPart(merged, "template", messages * account.templateTokensPerMessage + joins);
  const { lore } = account;
  return {
    parts: merged,
    promptTokens: merged.reduce((n, p) => n + p.tokens, 0),
    contextWindow: account.contextWindow,
    replyTokens: account.replyTokens,
    history: { exchanges: account.exchanges, kept: account.kept },
    lore: [
      ...lore.constant.map((e) => loreFired(e, "system", lore.why.get(e))),
      ...lore.triggered.map((e) => loreFired(e, "note", lore.why.get(e))),
    ],
    memory: {
      settledFacts: account.facts?.settled.length ?? 0,
      recentFacts: account.facts?.recent.length ?? 0,
      summaryChars: account.summary.trim().length,
    },
  };
}
