import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { ChatMessage } from "../../providers/llm/llm";

/** The character card fields the system prompt is built from (spec 3 "Character (detail)"). */
export interface CharacterCard {
  name: string;
  /** '0' female, '1' male (spec 3). */
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
 * What the sender tells about themself with one message (spec 7 `chat/message` fields `pname`,
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

export interface PromptInput {
  character: CharacterCard;
  userName: string;
  /** The sender's own words about themself and their local time (spec 7 pname, ptext, time). */
  sender?: SenderContext;
  /** Rolling summary of older messages, if any (memory). */
  summary: string;
  /** Oldest first; the newest exchange holds the message being answered (reply empty). */
  history: Exchange[];
  /** The model's context window in tokens. */
  contextWindow: number;
  /** Tokens kept free for the reply. */
  replyTokens: number;
  countTokens: (text: string) => number;
  /** In a group chat: the other members' names. */
  otherMembers?: string[];
  /** Long-term facts about the user this character remembers (memory), most relevant first. */
  facts?: string[];
  /** The user's plan allows uncensored replies (issue 5: a plan attribute). */
  uncensored?: boolean;
  /** Issue 17: the chosen lorebook entries' content, before and after the backstory (lorebook.ts). */
  lore?: LoreText;
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

/**
 * The system prompt: who the character is, whom they talk to, in which language, and the rules
 * that keep replies in character and never speak for the user. Lorebook entries (issue 17) go
 * just before and just after the backstory, as SillyTavern's "before/after char" positions.
 */
export function buildSystemPrompt(
  card: CharacterCard,
  userName: string,
  summary: string,
  otherMembers: string[] = [],
  facts: string[] = [],
  uncensored = false,
  sender: SenderContext = {},
  lore: LoreText = { before: [], after: [] },
): string {
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
  if (sender.about?.trim()) lines.push("", `About ${userName}, in their own words: ${sender.about.trim()}`);
  if (sender.localTime) lines.push("", `For ${userName} it is now ${sender.localTime}.`);
  if (card.greeting.trim())
    lines.push("", `${card.name} greets people like this: "${fill(card.greeting).trim()}"`);
  if (facts.length > 0) {
    lines.push("", `What ${card.name} remembers about ${userName}:`, ...facts.map((f) => `- ${f}`));
  }
  if (summary.trim()) lines.push("", `What happened earlier in this conversation: ${summary.trim()}`);
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
    uncensored
      ? `- Adult themes between consenting adults are allowed when ${userName} wants them.`
      : "- Keep the conversation free of explicit sexual content; if it goes there, steer away kindly, in character.",
    "- Never write sexual content involving minors.",
  );
  return lines.join("\n");
}

/** Fixed per-message overhead of chat templates (role markers), in tokens. */
const TEMPLATE_TOKENS_PER_MESSAGE = 8;

/**
 * Builds the messages for the model: the system prompt, then as much of the most recent history
 * as fits the token budget `contextWindow - replyTokens - system prompt`. Older exchanges that
 * do not fit are left out whole (the rolling summary stands in for them). The greeting marker
 * is never sent as a user message.
 * @returns the messages, oldest first, ending with the user's message being answered.
 */
export function buildPrompt(input: PromptInput): ChatMessage[] {
  return buildPromptWindow(input).messages;
}

/**
 * As buildPrompt, and how many of the newest exchanges of `input.history` the prompt carries
 * (`kept`): older ones did not fit (issue 19: memory extracts facts from messages about to drop).
 */
export function buildPromptWindow(input: PromptInput): { messages: ChatMessage[]; kept: number } {
  const system = buildSystemPrompt(
    input.character,
    input.userName,
    input.summary,
    input.otherMembers,
    input.facts,
    input.uncensored,
    input.sender,
    input.lore,
  );
  let budget =
    input.contextWindow - input.replyTokens - input.countTokens(system) - TEMPLATE_TOKENS_PER_MESSAGE;
  const picked: ChatMessage[] = [];
  let kept = 0;
  for (let i = input.history.length - 1; i >= 0; i--) {
    const exchange = input.history[i]!;
    const pair: ChatMessage[] = [];
    if (exchange.userMessage && exchange.userMessage !== FIRST_MESSAGE_MARKER) {
      pair.push({ role: "user", content: exchange.userMessage });
    }
    if (exchange.reply) {
      const other = exchange.speaker && exchange.speaker !== input.character.name;
      pair.push(
        other
          ? { role: "user", content: `${exchange.speaker}: ${exchange.reply}` }
          : { role: "assistant", content: exchange.reply },
      );
    }
    const cost = pair.reduce((n, m) => n + input.countTokens(m.content) + TEMPLATE_TOKENS_PER_MESSAGE, 0);
    // The message being answered is always sent, even when the window is tiny.
    if (cost > budget && picked.length > 0) break;
    budget -= cost;
    picked.unshift(...pair);
    kept += 1;
  }
  return { messages: [{ role: "system", content: system }, ...mergeSameRole(picked)], kept };
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

/** Strings after which the model has started to write the user's turn. */
export function stopStrings(userName: string, otherMembers: string[] = []): string[] {
  // Endpoints take at most 4 stop strings: the names come first; cleanReply applies them all.
  return [`\n${userName}:`, ...otherMembers.map((name) => `\n${name}:`), "\nUser:", "\n### User"];
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
 * The user's local time for the system prompt, from `chat/message`'s `time` (spec 7; ours: ISO
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
