// The two written sections of a reply's prompt: the stable system prompt and the turn's note (prompt.ts has the layout rule).
import type { PromptPartKind } from "../../../common/prompt-inspection";

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

/** A run of a prompt's lines and the part it belongs to (the prompt inspector's parts). */
export interface PromptSection {
  kind: PromptPartKind;
  lines: string[];
}

/**
 * The system prompt: who the character is, whom they talk to, in which language, and the rules
 * that keep replies in character and never speak for the user. Lorebook entries go just before
 * and just after the backstory, as SillyTavern's "before/after char" positions. Nothing in it
 * changes from turn to turn (the layout rule at the top of prompt.ts).
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  return systemPromptSections(input)
    .flatMap((s) => s.lines)
    .join("\n");
}

/**
 * The system prompt's lines in sections, in order: joined with newlines they are
 * `buildSystemPrompt`'s text. A section's blank separator line goes with it.
 */
export function systemPromptSections(input: SystemPromptInput): PromptSection[] {
  const { card, userName } = input;
  const otherMembers = input.otherMembers ?? [];
  const facts = input.facts ?? [];
  const lore = input.lore ?? { before: [], after: [] };
  const fill = (t: string) => fillPlaceholders(t, card.name, userName);
  const pronoun = card.sex === "1" ? "man" : "woman";
  const sections: PromptSection[] = [];
  const add = (kind: PromptPartKind, ...lines: string[]) => sections.push({ kind, lines });
  add(
    "character",
    `You are ${card.name}, a ${pronoun} chatting one to one with ${userName} as their companion.`,
    "",
  );
  if (lore.before.length > 0) add("lore_constant", ...lore.before.map((t) => fill(t).trim()), "");
  add("character", `About ${card.name}:`, fill(card.backstory).trim());
  if (lore.after.length > 0) add("lore_constant", "", ...lore.after.map((t) => fill(t).trim()));
  if (card.appearance.trim())
    add("character", "", `${card.name}'s appearance: ${fill(card.appearance).trim()}`);
  if (card.greeting.trim())
    add("character", "", `${card.name} greets people like this: "${fill(card.greeting).trim()}"`);
  if (facts.length > 0) {
    add("facts_settled", "", `What ${card.name} remembers about ${userName}:`, ...facts.map((f) => `- ${f}`));
  }
  if (input.summary.trim())
    add("summary", "", `What happened earlier in this conversation: ${input.summary.trim()}`);
  if (otherMembers.length > 0) {
    add(
      "group",
      "",
      `This is a group chat: ${userName}, ${card.name}, ${otherMembers.join(", ")} are talking together. Their lines are marked with their names.`,
    );
  }
  add(
    "rules",
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
  return sections;
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
  /** Recall's lines: earlier messages of the chat by date and speaker (recall-prompt.ts). */
  recalled?: string[];
}

/**
 * The turn's note: the earlier messages recalled, the sender's local time, the name they go by
 * and their words about themself, recent facts and triggered lorebook entries, in square brackets (the system prompt's last rule
 * says what it is). @returns "" when there is nothing to note.
 */
export function turnNote(input: TurnNoteInput): string {
  const lines = turnNoteSections(input).flatMap((s) => s.lines);
  return lines.length === 0 ? "" : `[${lines.join("\n")}]`;
}

/**
 * The turn's note's lines in sections (only those with lines), in order: joined with newlines
 * inside square brackets they are `turnNote`'s text.
 */
export function turnNoteSections(input: TurnNoteInput): PromptSection[] {
  const { characterName, userName } = input;
  const sender = input.sender ?? {};
  const fill = (t: string) => fillPlaceholders(t, characterName, userName).trim();
  const lines: string[] = [];
  const name = sender.name?.trim();
  // Short lines: every turn re-reads the note (the layout rule at the top of prompt.ts).
  if (name && name !== userName) lines.push(`${userName} goes by ${name}.`);
  const who = name || userName;
  if (sender.localTime) lines.push(`${who}'s local time: ${sender.localTime}.`);
  if (sender.about?.trim()) lines.push(`${who} about themself: ${sender.about.trim()}`);
  const facts = (input.facts ?? []).map((fact) => `${characterName} remembers: ${fact}`);
  const lore = (input.lore ?? []).map(fill).filter(Boolean);
  const sections: PromptSection[] = [
    { kind: "recalled", lines: input.recalled ?? [] },
    { kind: "sender", lines },
    { kind: "facts_recent", lines: facts },
    { kind: "lore_triggered", lines: lore },
  ];
  return sections.filter((s) => s.lines.length > 0);
}
