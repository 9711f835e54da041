// The prompt inspector's account of buildChatPrompt's prompt: parts that add up exactly, per-section shares, what it costs to count.
import { describe, expect, it } from "vitest";
import { parseLorebook } from "./lorebook";
import { buildChatPrompt, type ChatState } from "./prompt";

// Not additive on purpose (a piece's count is rounded up): the parts must still add up exactly.
const countQuarters = (t: string) => Math.ceil(t.length / 4);

const book = parseLorebook({
  entries: [
    { name: "World", keys: [], content: "The city floats above the clouds.", constant: true },
    { name: "Dragons", keys: ["dragon"], content: "Dragons guard the old towers.", insertion_order: 2 },
    { comment: "The harbour", keys: ["ship", "harbour"], content: "Ships land at the sky harbour." },
    { name: "Unused", keys: ["volcano"], content: "Nobody has seen the volcano." },
  ],
});

function state(): ChatState {
  const history = Array.from({ length: 30 }, (_, i) => ({
    userMessage: `question ${i} ${"about the weather ".repeat(8)}`,
    reply: `answer ${i} ${"sunny and warm ".repeat(6)}`,
  }));
  history.push({
    userMessage: "Tell me where the harbour is",
    reply: "It is by the wall, where the ship waits.",
  });
  history.push({ userMessage: "Is there a dragon there?", reply: "" });
  if (!book.ok) throw new Error(book.message);
  return {
    character: {
      name: "Luna",
      sex: "0",
      backstory: "{{char}} studies the stars.",
      appearance: "Long dark hair",
      greeting: "Hi {{user}}!",
      language: "English",
    },
    userName: "Sam",
    sender: { name: "Sammy", about: "a night nurse", localTime: "Friday, 22:41" },
    summary: "They met at the observatory.",
    history,
    contextWindow: 1200,
    replyTokens: 100,
    countTokens: countQuarters,
    otherMembers: ["Kai"],
    facts: { settled: ["Sam likes tea", "Sam has a cat"], recent: ["Sam is tired"] },
    lorebook: book.book,
    authorsNote: { text: "Keep {{char}} cheerful.", depth: 0 },
  };
}

describe("prompt inspector's parts", () => {
  it("adds the parts up to the prompt's budgeted tokens, template overhead included", () => {
    const s = state();
    const { messages, kept, inspection } = buildChatPrompt(s);
    expect(kept).toBeLessThan(s.history.length);
    expect(inspection.history).toEqual({ exchanges: s.history.length, kept });
    const sum = inspection.parts.reduce((n, p) => n + p.tokens, 0);
    expect(sum).toBe(inspection.promptTokens);

    // The same total counted apart: the system prompt, the kept messages, the note and the
    // author's note (one token each for their joins), 8 tokens a message before joins.
    const authorsNote = "[Author's note: Keep Luna cheerful.]";
    const last = messages.at(-1)!.content;
    const userWords = "Is there a dragon there?";
    expect(last.startsWith(`${userWords}\n\n[`)).toBe(true);
    expect(last.endsWith(`\n\n${authorsNote}`)).toBe(true);
    const note = last.slice(userWords.length + 2, -(authorsNote.length + 2));
    const keptTexts = s.history.slice(-kept).flatMap((h) => [h.userMessage, h.reply].filter(Boolean));
    const expected =
      countQuarters(messages[0]!.content) +
      8 +
      keptTexts.reduce((n, t) => n + countQuarters(t) + 8, 0) +
      countQuarters(note) +
      1 +
      countQuarters(authorsNote) +
      1;
    expect(inspection.promptTokens).toBe(expected);
    expect(inspection.promptTokens).toBeLessThanOrEqual(s.contextWindow - s.replyTokens);
    expect(inspection.contextWindow).toBe(1200);
    expect(inspection.replyTokens).toBe(100);
  });

  it("names the parts in prompt order, each once", () => {
    const { inspection } = buildChatPrompt(state());
    expect(inspection.parts.map((p) => p.kind)).toEqual([
      "character",
      "lore_constant",
      "facts_settled",
      "summary",
      "group",
      "rules",
      "history",
      "sender",
      "facts_recent",
      "lore_triggered",
      "authors_note",
      "template",
    ]);
    for (const part of inspection.parts) expect(part.tokens).toBeGreaterThan(0);
  });

  it("says which lorebook entries fired and why, and what memory gave", () => {
    const { inspection } = buildChatPrompt(state());
    expect(inspection.lore).toEqual([
      { name: "World", place: "system" },
      { name: "The harbour", place: "note", key: "ship", foundIn: "message", messageFromEnd: 1 },
      { name: "Dragons", place: "note", key: "dragon", foundIn: "message", messageFromEnd: 0 },
    ]);
    expect(inspection.memory).toEqual({
      settledFacts: 2,
      recentFacts: 1,
      summaryChars: "They met at the observatory.".length,
    });
  });

  it("has only the system prompt, the history and the template for a bare chat", () => {
    const bare: ChatState = {
      ...state(),
      sender: undefined,
      summary: "",
      otherMembers: [],
      facts: undefined,
      lorebook: null,
      authorsNote: undefined,
      history: [{ userMessage: "hello", reply: "" }],
    };
    const { messages, inspection } = buildChatPrompt(bare);
    expect(inspection.parts.map((p) => p.kind)).toEqual(["character", "rules", "history", "template"]);
    expect(inspection.promptTokens).toBe(
      countQuarters(messages[0]!.content) + 8 + countQuarters("hello") + 8,
    );
    expect(inspection.lore).toEqual([]);
  });
});

describe("prompt inspector's sections", () => {
  const words = (t: string) => t.split(/\s+/).filter(Boolean).length;

  it("gives each section its own count when the counter adds up (words: sections join at whitespace)", () => {
    const s: ChatState = { ...state(), lorebook: null, countTokens: words };
    const { messages, inspection } = buildChatPrompt(s);
    const part = (kind: string) => inspection.parts.find((p) => p.kind === kind)?.tokens;
    expect(part("summary")).toBe(
      words("What happened earlier in this conversation: They met at the observatory."),
    );
    expect(part("sender")).toBe(
      words("[Sam goes by Sammy. Sammy's local time: Friday, 22:41. Sammy about themself: a night nurse"),
    );
    expect(part("facts_recent")).toBeGreaterThan(0);
    const systemKinds = ["character", "facts_settled", "summary", "group", "rules"];
    const system = inspection.parts.filter((p) => systemKinds.includes(p.kind));
    expect(system.reduce((n, p) => n + p.tokens, 0)).toBe(words(messages[0]!.content));
  });

  it("keeps every part non-negative and the sum exact when pieces round up far more than the whole", () => {
    const coarse = (t: string) => Math.ceil(t.length / 200);
    const { messages, kept, inspection } = buildChatPrompt({ ...state(), countTokens: coarse });
    for (const part of inspection.parts) expect(part.tokens).toBeGreaterThanOrEqual(0);
    expect(inspection.parts.reduce((n, p) => n + p.tokens, 0)).toBe(inspection.promptTokens);
    const systemKinds = ["character", "lore_constant", "facts_settled", "summary", "group", "rules"];
    const system = inspection.parts.filter((p) => systemKinds.includes(p.kind));
    expect(system.reduce((n, p) => n + p.tokens, 0)).toBe(coarse(messages[0]!.content));
    expect(inspection.history.kept).toBe(kept);
  });
});

describe("prompt inspector's cost", () => {
  it("tokenizes the prompt's texts about once each: no prefix counts, no second count of the history", () => {
    let countedChars = 0;
    const counting = (t: string) => {
      countedChars += t.length;
      return countQuarters(t);
    };
    const history = Array.from({ length: 10 }, (_, i) => ({
      userMessage: `question ${i} ${"about the weather ".repeat(8)}`,
      reply: `answer ${i} ${"sunny and warm ".repeat(6)}`,
    }));
    // No lorebook: its selection counts entries of its own, which is not the inspector's cost.
    const s: ChatState = {
      ...state(),
      lorebook: null,
      history,
      contextWindow: 100_000,
      countTokens: counting,
    };
    const { messages, kept, inspection } = buildChatPrompt(s);
    expect(kept).toBe(history.length);
    expect(messages.length).toBe(1 + 2 * history.length);
    expect(inspection.parts.filter((p) => p.kind !== "template").length).toBeGreaterThanOrEqual(7);
    expect(inspection.parts.reduce((n, p) => n + p.tokens, 0)).toBe(inspection.promptTokens);
    // The prompt's texts: the system prompt, the 20 messages with the note and author's note appended.
    const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
    expect(countedChars).toBeGreaterThanOrEqual(promptChars);
    expect(countedChars).toBeLessThan(1.5 * promptChars);
  });
});
