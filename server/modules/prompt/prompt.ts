import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { ChatMessage } from "../../providers/llm/llm";
import { DEFAULT_TOKEN_BUDGET, type Lorebook, type LoreEntry, selectLoreEntries } from "./lorebook";

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

/** The character card fields the system prompt is built from (product.md §3 "Character (detail)"). */
export interface CharacterCard {
  name: string;
  /** '0' female, '1' male (product.md §3). */
  sex: string;
  backstory: string;
  appearance: string;
  greeting: string;
  /** Reply language, e.g. "English". */
  language: string;
}

/** One exchange of the stored history: the user's message and the character's reply. */
export interface Exchange {
  userMessage: string;
  reply: string;
  /** In a group: the name of the character who wrote `reply` (another member's reply is shown by name). */
  speaker?: string;
}

/**
 * What the sender tells about themself with one message (product.md §7 `chat/message` fields `pname`,
 * `ptext`, `time`; their meaning is ours, README "How the chat works"). Used for that reply only.
 */
export interface SenderContext {
  /** `pname`: the name the character calls the user in this reply instead of the profile's name. */
  name?: string;
  /** `ptext`: a few words about the user for this reply, e.g. "a night nurse, just off shift". */
  about?: string;
  /** `time`: the user's local time when sending, written for the model ("Thursday, 22:41"). */
  localTime?: string;
}

/** What the character remembers about the user (memory), split by the chat's last summary point. */
export interface RememberedFacts {
  /** Facts settled at the last summary point, in a fixed order: part of the stable system prompt. */
  settled: string[];
  /** Facts learned since then, or older ones relevant to the newest words: the turn's note. */
  recent: string[];
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
}

/** Lorebook entries' content for the system prompt, each list in prompt order. */
export interface LoreText {
  before: string[];
  after: string[];
}

/** Replaces the card placeholders `{{char}}` and `{{user}}` (case-insensitive). */
export function fillPlaceholders(text: string, charName: string, userName: string): string {
  return text.replace(/\{\{char\}\}/gi, charName).replace(/\{\{user\}\}/gi, userName);
}

/** What the stable system prompt is built from. */
export interface SystemPromptInput {
  card: CharacterCard;
  userName: string;
  summary: string;
  otherMembers?: string[];
  /** Facts the character remembers, in a fixed order. */
  facts?: string[];
  uncensored?: boolean;
  /** The lorebook's constant entries (lorebook.ts), before and after the backstory. */
  lore?: LoreText;
}

/**
 * The system prompt: who the character is, whom they talk to, in which language, and the rules
 * that keep replies in character and never speak for the user. Lorebook entries go just before
 * and just after the backstory, as SillyTavern's "before/after char" positions. Nothing in it
 * changes from turn to turn (the layout rule at the top of this file).
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const { card, userName } = input;
  const otherMembers = input.otherMembers ?? [];
  const facts = input.facts ?? [];
  const lore = input.lore ?? { before: [], after: [] };
  const fill = (t: string) => fillPlaceholders(t, card.name, userName);
  const pronoun = card.sex === "1" ? "man" : "woman";
  const lines = [
    `You are ${card.name}, a ${pronoun} chatting one to one with ${userName} as their companion.`,
    "",
  ];
  if (lore.before.length > 0) lines.push(...lore.before.map((t) => fill(t).trim()), "");
  lines.push(`About ${card.name}:`, fill(card.backstory).trim());
  if (lore.after.length > 0) lines.push("", ...lore.after.map((t) => fill(t).trim()));
  if (card.appearance.trim()) lines.push("", `${card.name}'s appearance: ${fill(card.appearance).trim()}`);
  if (card.greeting.trim())
    lines.push("", `${card.name} greets people like this: "${fill(card.greeting).trim()}"`);
  if (facts.length > 0) {
    lines.push("", `What ${card.name} remembers about ${userName}:`, ...facts.map((f) => `- ${f}`));
  }
  if (input.summary.trim())
    lines.push("", `What happened earlier in this conversation: ${input.summary.trim()}`);
  if (otherMembers.length > 0) {
    lines.push(
      "",
      `This is a group chat: ${userName}, ${card.name}, ${otherMembers.join(", ")} are talking together. Their lines are marked with their names.`,
    );
  }
  lines.push(
    "",
    "Rules:",
    `- Always answer in ${card.language}.`,
    `- Stay in character as ${card.name}; never say you are an AI or a language model.`,
    `- Write only ${card.name}'s next message: never write the words, thoughts or actions of ${[userName, ...otherMembers].join(" or ")}.`,
    "- Keep it conversational: usually one to four sentences. Put actions between asterisks, like *smiles*.",
    input.uncensored
      ? `- Adult themes between consenting adults are allowed when ${userName} wants them.`
      : "- Keep the conversation free of explicit sexual content; if it goes there, steer away kindly, in character.",
    "- Never write sexual content involving minors.",
    `- A note in square brackets after ${userName}'s message is background for this reply, not ${userName}'s words.`,
  );
  return lines.join("\n");
}

/** What changes from turn to turn, for the note after the newest user message. */
export interface TurnNoteInput {
  characterName: string;
  userName: string;
  sender?: SenderContext;
  /** Facts learned since the summary point or relevant to the newest words. */
  facts?: string[];
  /** Lorebook entries triggered by the newest messages, in prompt order. */
  lore?: string[];
}

/**
 * The turn's note: the sender's local time, the name they go by and their words about themself,
 * recent facts and triggered lorebook entries, in square brackets (the system prompt's last rule
 * says what it is). @returns "" when there is nothing to note.
 */
export function turnNote(input: TurnNoteInput): string {
  const { characterName, userName } = input;
  const sender = input.sender ?? {};
  const fill = (t: string) => fillPlaceholders(t, characterName, userName).trim();
  const lines: string[] = [];
  const name = sender.name?.trim();
  // Short lines: every turn re-reads the note (the layout rule at the top of this file).
  if (name && name !== userName) lines.push(`${userName} goes by ${name}.`);
  const who = name || userName;
  if (sender.localTime) lines.push(`${who}'s local time: ${sender.localTime}.`);
  if (sender.about?.trim()) lines.push(`${who} about themself: ${sender.about.trim()}`);
  for (const fact of input.facts ?? []) lines.push(`${characterName} remembers: ${fact}`);
  for (const lore of input.lore ?? []) if (fill(lore)) lines.push(fill(lore));
  return lines.length === 0 ? "" : `[${lines.join("\n")}]`;
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
): { constant: { before: LoreEntry[]; after: LoreEntry[] }; triggered: LoreEntry[] } {
  if (!book) return { constant: { before: [], after: [] }, triggered: [] };
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
  return { constant, triggered: [...triggered.before, ...triggered.after] };
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
  const system = buildSystemPrompt({
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
  const note = turnNote({
    characterName: name,
    userName: state.userName,
    sender: state.sender,
    facts: state.facts?.recent,
    lore: lore.triggered.filter((e) => e.content.trim()).map((e) => e.content),
  });
  const pairs = state.history.map((h) => exchangeMessages(h, name));
  const costs = pairs.map((pair) =>
    pair.reduce((n, m) => n + state.countTokens(m.content) + TEMPLATE_TOKENS_PER_MESSAGE, 0),
  );
  const budget =
    state.contextWindow -
    state.replyTokens -
    state.countTokens(system) -
    TEMPLATE_TOKENS_PER_MESSAGE -
    (note ? state.countTokens(note) + 1 : 0);
  const chunk = Math.floor(state.contextWindow / DROP_CHUNK_SHARE);
  const { start, nextCut } = historyStart(costs, budget, chunk);
  const messages: ChatMessage[] = [
    { role: "system", content: system },
    ...mergeSameRole(pairs.slice(start).flat()),
  ];
  if (note) {
    const target = messages.findLast((m) => m.role === "user") ?? messages[0]!;
    target.content = `${target.content}\n\n${note}`;
  }
  const kept = pairs.length - start;
  return { messages, kept, keptAfterNextDrop: pairs.length - nextCut || kept };
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

/**
 * Strings after which the model has started to write the user's turn: the name the user goes by,
 * the profile's name when that differs (`pname`), the other members' names.
 */
export function stopStrings(userName: string, otherMembers: string[] = [], profileName = userName): string[] {
  // Endpoints take at most 4 stop strings: the names come first; cleanReply applies them all.
  const names = profileName === userName ? [userName] : [userName, profileName];
  return [...names, ...otherMembers].map((name) => `\n${name}:`).concat("\nUser:", "\n### User");
}

/**
 * Cleans a raw model reply: cuts anything written as the user, drops a leading "Name:" the
 * model may echo, trims whitespace.
 */
export function cleanReply(
  raw: string,
  charName: string,
  userName: string,
  otherMembers: string[] = [],
): string {
  let text = raw;
  for (const stop of stopStrings(userName, otherMembers)) {
    const at = text.indexOf(stop);
    if (at >= 0) text = text.slice(0, at);
  }
  text = text.trim();
  const prefix = `${charName}:`;
  if (text.startsWith(prefix)) text = text.slice(prefix.length).trim();
  return text;
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d{1,9})?)?([+-])(\d{2}):?(\d{2})$/;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
/** A client's clock may be this far off the server's before its `time` is ignored, milliseconds. */
const LOCAL_TIME_SKEW_MS = 26 * 60 * 60 * 1000;

/**
 * The user's local time for the system prompt, from `chat/message`'s `time` (product.md §7; ours: ISO
 * 8601 with the sender's UTC offset, e.g. "2026-11-26T22:41:07.000+01:00").
 * @returns e.g. "Thursday, 22:41"; undefined when `time` is missing, malformed, carries no
 * offset (a "Z" time tells nothing about the user's day), or lies over 26 h from `now` (epoch ms).
 */
export function localTimeText(time: string | undefined, now: number): string | undefined {
  const match = time ? LOCAL_TIME.exec(time) : null;
  if (!match) return undefined;
  const [, y, mo, d, h, mi, sign, oh, om] = match as unknown as string[];
  const [year, month, day, hour, minute] = [y, mo, d, h, mi].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetMinutes = (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om));
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 31 ||
    hour > 23 ||
    minute > 59 ||
    Math.abs(offsetMinutes) > 14 * 60
  )
    return undefined;
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  if (Math.abs(wall - offsetMinutes * 60_000 - now) > LOCAL_TIME_SKEW_MS) return undefined;
  const weekday = WEEKDAYS[new Date(wall).getUTCDay()];
  return `${weekday}, ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}
