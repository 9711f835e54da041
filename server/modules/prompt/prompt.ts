// The prompt of a character's reply: card, lorebook, memory, history and the new message, laid out for prefix caches.
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { PromptInspection } from "../../../common/prompt-inspection";
import type { ChatMessage } from "../../providers/llm/llm";
import {
  DEFAULT_TOKEN_BUDGET,
  type Lorebook,
  type LoreEntry,
  type LoreMatch,
  selectLoreEntries,
} from "./lorebook";
import type { RememberedFacts } from "./memory-port";
import { inspectPrompt } from "./prompt-parts";
import {
  type CharacterCard,
  fillPlaceholders,
  type SenderContext,
  systemPromptSections,
  turnNoteSections,
} from "./prompt-sections";
import type { RecallFound, RecallMessage } from "./recall-port";
import { packRecall } from "./recall-prompt";

export { localTimeText } from "./local-time";
export type { AfterReplyInput, RememberedFacts } from "./memory-port";
export {
  buildSystemPrompt,
  type CharacterCard,
  fillPlaceholders,
  type LoreText,
  type SenderContext,
  type SystemPromptInput,
  type TurnNoteInput,
  turnNote,
} from "./prompt-sections";
export type { RecallFound, RecallMatch, RecallMessage } from "./recall-port";
export { recallBudget } from "./recall-prompt";
export { cleanReply, stopStrings } from "./reply-text";

/**
 * The prompt of a character's reply: one home for what the model is given (the card, the
 * lorebook, memory, the history, the sender's words) and in which order.
 *
 * The layout rule, for prefix caches (the embedded model's per-chat context sequence, llama.cpp
 * server's prompt cache, Ollama's, vLLM's automatic prefix caching, hosted APIs' prompt caching):
 * what stays the same from turn to turn comes first and stays byte-identical; what changes goes
 * last, next to the newest message.
 * - Stable, the system prompt: the character card, the lorebook's constant entries, the facts
 *   settled at the chat's last summary point, the rolling summary, the group's members, the rules.
 * - The history after the summary point, oldest first. When it outgrows the context window, old
 *   exchanges are dropped in chunks of about a quarter of the window (cut points counted from
 *   the summary point, so they do not move as the chat grows): the prompt's start stays put for
 *   many turns instead of sliding by one message per turn.
 * - Per turn, appended to the newest user message as a bracketed note (an author's note at depth
 *   0; inside the user message because many chat templates refuse a second system message): the
 *   user's local time, `pname`/`ptext`, lorebook entries triggered by the newest messages, facts
 *   learned since the summary point or relevant to the newest words.
 * So a turn re-reads only the last reply, the new message and its note.
 */

/** One exchange of the stored history: the user's message and the character's reply. */
export interface Exchange {
  /** The history entry's id (recall never repeats an entry the prompt carries). */
  id?: string;
  userMessage: string;
  reply: string;
  /** In a group: the name of the character who wrote `reply` (another member's reply is shown by name). */
  speaker?: string;
}

/** A chat's state as the prompt of one reply reads it. */
export interface ChatState {
  character: CharacterCard;
  /** The profile's name: the stable part names the user by it (`pname` goes in the turn's note). */
  userName: string;
  /** The sender's own words about themself and their local time (product.md §7 pname, ptext, time). */
  sender?: SenderContext;
  /** Rolling summary of the exchanges before the history (memory). */
  summary: string;
  /** The exchanges after the summary point, oldest first; the newest holds the message answered. */
  history: Exchange[];
  /** The model's context window in tokens. */
  contextWindow: number;
  /** Tokens kept free for the reply. */
  replyTokens: number;
  countTokens: (text: string) => number;
  /** In a group chat: the other members' names. */
  otherMembers?: string[];
  facts?: RememberedFacts;
  /** The user's plan allows uncensored replies (a plan attribute). */
  uncensored?: boolean;
  /** The character's lorebook (lorebook.ts chooses its entries). */
  lorebook?: Lorebook | null;
  /** The character's author's note and its depth (see `placeAuthorsNote`); absent or blank: none. */
  authorsNote?: AuthorsNote;
  /** Recall: the earlier messages found for this reply, its token budget and who said what. */
  recall?: RecallInput;
}

/** What recall found for a reply, and how the prompt may use it. */
export interface RecallInput {
  found: RecallFound;
  /** Tokens recall may take (recallBudget); kept free in the history's budget while recall is on. */
  budget: number;
  /** The name the prompt gives a recalled message's author. */
  speaker: (message: RecallMessage) => string;
}

/**
 * An author's note: the character writer's steering text, placed `depth` messages from the end
 * of the prompt (SillyTavern's rule: 0 is with the newest message, 4 before the four newest).
 */
export interface AuthorsNote {
  text: string;
  /** Messages from the end, 0-100 (characters.schemas.ts bounds it). */
  depth: number;
}

/** The messages of one reply and what of the history they carry. */
export interface ChatPrompt {
  /** The system prompt first, oldest first, ending with the message answered (or the reply continued). */
  messages: ChatMessage[];
  /** How many of the newest exchanges of the history the prompt carries. */
  kept: number;
  /**
   * How many of them stay after the next chunk is dropped (memory extracts facts from the
   * messages about to leave); `kept` when all of the history fits with room for a chunk more.
   */
  keptAfterNextDrop: number;
  /** What the prompt is made of, for the prompt inspector (prompt-parts.ts). */
  inspection: PromptInspection;
}

/** Fixed per-message overhead of chat templates (role markers), in tokens. */
const TEMPLATE_TOKENS_PER_MESSAGE = 8;
/** Old exchanges are dropped in chunks of this share of the context window (the layout rule). */
const DROP_CHUNK_SHARE = 4;

/** One exchange as prompt messages: the user's words (never the greeting marker), then the reply. */
function exchangeMessages(exchange: Exchange, characterName: string): ChatMessage[] {
  const pair: ChatMessage[] = [];
  if (exchange.userMessage && exchange.userMessage !== FIRST_MESSAGE_MARKER) {
    pair.push({ role: "user", content: exchange.userMessage });
  }
  if (exchange.reply) {
    const other = exchange.speaker && exchange.speaker !== characterName;
    pair.push(
      other
        ? { role: "user", content: `${exchange.speaker}: ${exchange.reply}` }
        : { role: "assistant", content: exchange.reply },
    );
  }
  return pair;
}

/**
 * Where the history starts in the prompt: chunked dropping (the layout rule). Cut points fall
 * where the running token count from the history's first exchange crosses a multiple of
 * `chunk`; the earliest cut point whose suffix fits `budget` is chosen, so the start moves only
 * when a whole chunk must go. The newest exchange is always kept, even when it alone overflows.
 * @param costs tokens of each exchange, oldest first.
 * @returns the first kept index and the index of the next cut point after it (costs.length: none).
 */
export function historyStart(
  costs: readonly number[],
  budget: number,
  chunk: number,
): { start: number; nextCut: number } {
  const n = costs.length;
  if (n === 0) return { start: 0, nextCut: 0 };
  const before = [0];
  for (const cost of costs) before.push(before.at(-1)! + cost);
  const total = before[n]!;
  const size = Math.max(1, chunk);
  const cuts: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i === 0 || Math.floor(before[i]! / size) > Math.floor(before[i - 1]! / size)) cuts.push(i);
  }
  const at = cuts.findIndex((i) => total - before[i]! <= budget);
  if (at >= 0 && cuts[at]! < n) return { start: cuts[at]!, nextCut: cuts[at + 1] ?? n };
  // Not even the last chunk fits: the newest exchanges that do (at least the newest one).
  let start = n - 1;
  while (start > 0 && total - before[start - 1]! <= budget) start -= 1;
  return { start, nextCut: n };
}

/**
 * The lorebook entries of a reply: the constant ones for the system prompt, chosen first so that
 * they never change with the chat's words, then the ones triggered by the newest messages with
 * the budget left (lorebook.ts has the selection rules). Budget: the book's `token_budget`, at
 * most a quarter of the context window (SillyTavern's default share).
 */
function chooseLore(
  book: Lorebook | null | undefined,
  scanned: readonly string[],
  countTokens: (text: string) => number,
  contextWindow: number,
): {
  constant: { before: LoreEntry[]; after: LoreEntry[] };
  triggered: LoreEntry[];
  why: Map<LoreEntry, LoreMatch>;
} {
  if (!book) return { constant: { before: [], after: [] }, triggered: [], why: new Map() };
  const maxTokens = Math.floor(contextWindow / 4);
  const constantBook = { ...book, entries: book.entries.filter((e) => e.constant) };
  const constant = selectLoreEntries(constantBook, [], countTokens, maxTokens);
  const chosen = [...constant.before, ...constant.after];
  const used = chosen.length > 0 ? countTokens(`${chosen.map((e) => e.content).join("\n")}\n`) : 0;
  const rest = {
    ...book,
    token_budget: Math.max(0, (book.token_budget ?? DEFAULT_TOKEN_BUDGET) - used),
    entries: book.entries.filter((e) => !e.constant),
  };
  const recursed = book.recursive_scanning ? chosen.map((e) => e.content) : [];
  const triggered = selectLoreEntries(rest, scanned, countTokens, maxTokens - used, recursed);
  const why = new Map([...constant.why, ...triggered.why]);
  return { constant, triggered: [...triggered.before, ...triggered.after], why };
}

/**
 * The messages of a character's next reply from the chat's state, laid out by the rule at the
 * top of this file: the stable system prompt, the history after the summary point (old
 * exchanges dropped in chunks when it outgrows `contextWindow - replyTokens`), and the turn's
 * note appended to the newest user message (to the system prompt when the prompt has none).
 * Consecutive messages of one role (group turns) are joined, as some chat templates require.
 * @returns the messages and how much of the history they carry.
 */
export function buildChatPrompt(state: ChatState): ChatPrompt {
  const name = state.character.name;
  const scanned = state.history.flatMap((h) =>
    [h.userMessage, h.reply].filter((t) => t && t !== FIRST_MESSAGE_MARKER),
  );
  const lore = chooseLore(state.lorebook, scanned, state.countTokens, state.contextWindow);
  const constantLore = [...lore.constant.before, ...lore.constant.after];
  const systemSections = systemPromptSections({
    card: state.character,
    userName: state.userName,
    summary: state.summary,
    otherMembers: state.otherMembers,
    facts: state.facts?.settled,
    uncensored: state.uncensored,
    lore: {
      before: lore.constant.before.map((e) => e.content),
      after: lore.constant.after.map((e) => e.content),
    },
  });
  const system = systemSections.flatMap((s) => s.lines).join("\n");
  const noteInput = {
    characterName: name,
    userName: state.userName,
    sender: state.sender,
    facts: state.facts?.recent,
    lore: lore.triggered.filter((e) => e.content.trim()).map((e) => e.content),
  };
  const baseNote = noteText(turnNoteSections(noteInput));
  const pairs = state.history.map((h) => exchangeMessages(h, name));
  const costs = pairs.map((pair) =>
    pair.reduce((n, m) => n + state.countTokens(m.content) + TEMPLATE_TOKENS_PER_MESSAGE, 0),
  );
  const authorsNote = authorsNoteText(state);
  // Counted once: the budget and the inspector's account (prompt-parts.ts) share these counts.
  const systemTokens = state.countTokens(system);
  const baseNoteTokens = baseNote ? state.countTokens(baseNote) : 0;
  const authorsNoteTokens = authorsNote ? state.countTokens(authorsNote) : null;
  // While recall is on its budget stays free whatever it finds, so the history's start (and the
  // prefix caches) does not move with what each turn recalls.
  const recallReserve = state.recall?.found.enabled ? state.recall.budget + 2 : 0;
  const budget =
    state.contextWindow -
    state.replyTokens -
    systemTokens -
    TEMPLATE_TOKENS_PER_MESSAGE -
    (baseNote ? baseNoteTokens + 1 : 0) -
    (authorsNoteTokens !== null ? authorsNoteTokens + 1 : 0) -
    recallReserve;
  const chunk = Math.floor(state.contextWindow / DROP_CHUNK_SHARE);
  const { start, nextCut } = historyStart(costs, budget, chunk);
  const keptMessages = pairs.slice(start).flat();
  const recalled = state.recall
    ? packRecall(state.recall.found, {
        budget: state.recall.budget,
        exclude: new Set(state.history.slice(start).flatMap((h) => (h.id ? [h.id] : []))),
        countTokens: state.countTokens,
        speaker: state.recall.speaker,
      })
    : undefined;
  const noteSections = turnNoteSections({ ...noteInput, recalled: recalled?.lines });
  const note = recalled?.lines.length ? noteText(noteSections) : baseNote;
  const noteTokens = recalled?.lines.length ? state.countTokens(note) : baseNoteTokens;
  const messages: ChatMessage[] = [{ role: "system", content: system }, ...mergeSameRole(keptMessages)];
  if (note) {
    const target = messages.findLast((m) => m.role === "user") ?? messages[0]!;
    target.content = `${target.content}\n\n${note}`;
  }
  if (authorsNote) placeAuthorsNote(messages, authorsNote, state.authorsNote!.depth);
  const kept = pairs.length - start;
  const keptCost = costs.slice(start).reduce((n, c) => n + c, 0);
  const inspection = inspectPrompt({
    system: systemSections,
    systemTokens,
    note: noteSections,
    noteTokens,
    authorsNoteTokens,
    historyMessages: keptMessages.length,
    // The kept exchanges' costs less their messages' template overhead (counted as "template").
    historyTokens: keptCost - keptMessages.length * TEMPLATE_TOKENS_PER_MESSAGE,
    exchanges: pairs.length,
    kept,
    contextWindow: state.contextWindow,
    replyTokens: state.replyTokens,
    templateTokensPerMessage: TEMPLATE_TOKENS_PER_MESSAGE,
    countTokens: state.countTokens,
    lore: { constant: constantLore, triggered: lore.triggered, why: lore.why },
    facts: state.facts,
    summary: state.summary,
  });
  if (state.recall) {
    const { found, budget: recallTokens } = state.recall;
    inspection.recall = {
      enabled: found.enabled,
      query: found.query,
      budget: recallTokens,
      ms: Math.round(found.ms * 100) / 100,
      messages: recalled?.messages ?? [],
    };
  }
  return { messages, kept, keptAfterNextDrop: pairs.length - nextCut || kept, inspection };
}

/** The turn's note of its sections: their lines inside square brackets; "" when there are none. */
function noteText(sections: ReadonlyArray<{ lines: string[] }>): string {
  const lines = sections.flatMap((s) => s.lines);
  return lines.length === 0 ? "" : `[${lines.join("\n")}]`;
}

/** The author's note as the prompt carries it (placeholders filled, bracketed); "" when blank. */
function authorsNoteText(state: ChatState): string {
  const text = fillPlaceholders(state.authorsNote?.text ?? "", state.character.name, state.userName).trim();
  return text ? `[Author's note: ${text}]` : "";
}

/**
 * Appends the author's note to the message `depth` messages from the end (0: the newest; never
 * the system prompt while the history has a message, and the system prompt when it has none).
 * Appended inside a message rather than as a message of its own, because many chat templates
 * refuse a second system message and some require user and assistant to alternate.
 */
export function placeAuthorsNote(messages: ChatMessage[], note: string, depth: number): void {
  const index = Math.max(
    Math.min(1, messages.length - 1),
    messages.length - 1 - Math.max(0, Math.floor(depth)),
  );
  const target = messages[index]!;
  target.content = `${target.content}\n\n${note}`;
}

/** Joins consecutive messages of the same role (group turns), which some chat templates refuse. */
function mergeSameRole(messages: ChatMessage[]): ChatMessage[] {
  const merged: ChatMessage[] = [];
  for (const message of messages) {
    const last = merged.at(-1);
    if (last && last.role === message.role) last.content = `${last.content}\n${message.content}`;
    else merged.push({ ...message });
  }
  return merged;
}
