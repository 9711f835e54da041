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
  /** The turn's note's sections (inside square brackets they are the note); none: no note. */
  note: PromptSection[];
  /** The author's note as the prompt carries it; "" when none. */
  authorsNote: string;
  /** The texts of the history's messages the prompt keeps (before same-role joins). */
  historyTexts: string[];
  /** Exchanges read and how many of the newest the prompt keeps. */
  exchanges: number;
  kept: number;
  contextWindow: number;
  replyTokens: number;
  /** Fixed tokens of each message's role markers (prompt.ts `TEMPLATE_TOKENS_PER_MESSAGE`). */
  templateTokensPerMessage: number;
  countTokens: (text: string) => number;
  /** The lorebook's entries in the prompt (system prompt's, then the note's) and why each fired. */
  lore: { constant: LoreEntry[]; triggered: LoreEntry[]; why: ReadonlyMap<LoreEntry, LoreMatch> };
  facts?: RememberedFacts;
  summary: string;
}

/**
 * Tokens each section adds to a text, counted by prefix: the tokens of the text through a
 * section less those through the one before it. So the sections' tokens add up to the whole
 * text's tokens exactly, though a tokenizer's counts of pieces do not add up.
 * @param render the text of the first lines (`last`: they are all of them).
 */
function sectionTokens(
  sections: readonly PromptSection[],
  render: (lines: string[], last: boolean) => string,
  countTokens: (text: string) => number,
): PromptPart[] {
  const parts: PromptPart[] = [];
  const lines: string[] = [];
  let before = 0;
  sections.forEach((section, i) => {
    lines.push(...section.lines);
    const through = countTokens(render(lines, i === sections.length - 1));
    parts.push({ kind: section.kind, tokens: through - before });
    before = through;
  });
  return parts;
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
 */
export function inspectPrompt(account: PromptAccount): PromptInspection {
  const count = account.countTokens;
  const parts = sectionTokens(account.system, (lines) => lines.join("\n"), count);
  const merged: PromptPart[] = [];
  for (const part of parts) addPart(merged, part.kind, part.tokens);
  if (account.historyTexts.length > 0) {
    addPart(
      merged,
      "history",
      account.historyTexts.reduce((n, text) => n + count(text), 0),
    );
  }
  const noteRender = (lines: string[], last: boolean) => `[${lines.join("\n")}${last ? "]" : ""}`;
  for (const part of sectionTokens(account.note, noteRender, count)) addPart(merged, part.kind, part.tokens);
  if (account.authorsNote) addPart(merged, "authors_note", count(account.authorsNote));
  const messages = 1 + account.historyTexts.length;
  const joins = (account.note.length > 0 ? 1 : 0) + (account.authorsNote ? 1 : 0);
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
