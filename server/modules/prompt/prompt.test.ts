import { describe, expect, it } from "vitest";
import { parseLorebook } from "./lorebook";
import {
  buildChatPrompt,
  buildSystemPrompt,
  type CharacterCard,
  type ChatState,
  cleanReply,
  type Exchange,
  fillPlaceholders,
  historyStart,
} from "./prompt";

const card: CharacterCard = {
  name: "Luna",
  sex: "0",
  backstory: "{{char}} studies the stars and likes {{user}}'s jokes.",
  appearance: "Long dark hair",
  greeting: "Hi {{user}}!",
  language: "French",
};
const countWords = (t: string) => t.split(/\s+/).filter(Boolean).length;
const buildPrompt = (state: ChatState) => buildChatPrompt(state).messages;

describe("prompt assembly", () => {
  it("fills {{char}} and {{user}} in every card field", () => {
    expect(fillPlaceholders("{{CHAR}} meets {{user}}", "Luna", "Sam")).toBe("Luna meets Sam");
    const system = buildSystemPrompt({ card, userName: "Sam", summary: "" });
    expect(system).toContain("Luna studies the stars and likes Sam's jokes.");
    expect(system).toContain('"Hi Sam!"');
    expect(system).toContain("Long dark hair");
    expect(system).toContain("Always answer in French");
    expect(system).toContain("never write the words, thoughts or actions of Sam");
    expect(system).not.toContain("{{");
  });

  it("keeps the newest history that fits the context window and always the message answered", () => {
    const history = Array.from({ length: 50 }, (_, i) => ({
      userMessage: `question ${i} ${"w ".repeat(20)}`,
      reply: `answer ${i}`,
    }));
    history.push({ userMessage: "the last one", reply: "" });
    const messages = buildPrompt({
      character: card,
      userName: "Sam",
      summary: "",
      history,
      contextWindow: 400,
      replyTokens: 50,
      countTokens: countWords,
    });
    expect(messages[0]!.role).toBe("system");
    expect(messages.at(-1)).toEqual({ role: "user", content: "the last one" });
    const total = messages.reduce((n: number, m: { content: string }) => n + countWords(m.content) + 8, 0);
    expect(total).toBeLessThanOrEqual(400 - 50 + 8);
    expect(messages.length).toBeLessThan(history.length * 2);
    expect(messages[1]!.content).toMatch(/^question \d+/);
    const big = buildPrompt({
      character: card,
      userName: "Sam",
      summary: "",
      history,
      contextWindow: 100_000,
      replyTokens: 50,
      countTokens: countWords,
    });
    expect(big).toHaveLength(1 + 50 * 2 + 1);
  });

  it("never sends the greeting marker as a user message", () => {
    const messages = buildPrompt({
      character: card,
      userName: "Sam",
      summary: "They talked about Mars.",
      history: [
        { userMessage: "##first-message##", reply: "Hi Sam!" },
        { userMessage: "Hello", reply: "" },
      ],
      contextWindow: 4096,
      replyTokens: 100,
      countTokens: countWords,
    });
    expect(messages.slice(1)).toEqual([
      { role: "assistant", content: "Hi Sam!" },
      { role: "user", content: "Hello" },
    ]);
    expect(messages[0]!.content).toContain("They talked about Mars.");
  });

  it("states the plan's content rule, and the minors rule on every plan", () => {
    const censored = buildSystemPrompt({ card, userName: "Sam", summary: "" });
    expect(censored).toContain("free of explicit sexual content");
    const uncensored = buildSystemPrompt({ card, userName: "Sam", summary: "", uncensored: true });
    expect(uncensored).toContain("Adult themes between consenting adults are allowed when Sam wants them.");
    for (const prompt of [censored, uncensored])
      expect(prompt).toContain("Never write sexual content involving minors.");
  });

  it("cuts text the model writes for the user and a leading name", () => {
    expect(cleanReply("Luna: Hello! *waves*\nSam: hi back", "Luna", "Sam")).toBe("Hello! *waves*");
    expect(cleanReply("  Plain reply  ", "Luna", "Sam")).toBe("Plain reply");
  });
});

/** The longest common prefix of two strings, in characters. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return i;
}

/** A prompt rendered as one text, as a chat template would (role markers, then the content). */
const render = (messages: Array<{ role: string; content: string }>) =>
  messages.map((m) => `<|${m.role}|>\n${m.content}\n`).join("");

describe("prompt layout for prefix caches", () => {
  const book = parseLorebook({
    entries: [
      { keys: [], content: "Luna lives on a lighthouse.", constant: true, insertion_order: 10 },
      { keys: ["comet"], content: "A comet is due on Friday.", insertion_order: 5 },
    ],
  });
  if (!book.ok) throw new Error(book.message);
  const state = (
    history: Exchange[],
    turn: {
      time: string;
      name?: string;
      recent: string[];
      settled?: string[];
    },
  ): ChatState => ({
    character: card,
    userName: "Sam",
    sender: { localTime: turn.time, name: turn.name, about: "a night nurse" },
    summary: "They met at the harbour.",
    history,
    contextWindow: 8192,
    replyTokens: 100,
    countTokens: countWords,
    facts: { settled: turn.settled ?? ["Sam has a cat."], recent: turn.recent },
    lorebook: book.book,
  });

  it("keeps every earlier turn's prompt as a byte-identical prefix despite time, pname, a new fact and a triggered entry", () => {
    const history: Exchange[] = [{ userMessage: "##first-message##", reply: "Hi Sam!" }];
    const turns = [
      { words: "Hello there", time: "Friday, 22:41", name: undefined, recent: [] },
      { words: "Did you see the comet?", time: "Friday, 22:58", name: "Sammy", recent: [] },
      {
        words: "I got a new job today",
        time: "Saturday, 01:12",
        name: "Sammy",
        recent: ["Sam got a new job."],
      },
      { words: "Good night", time: "Saturday, 01:30", name: undefined, recent: ["Sam got a new job."] },
    ];
    let previous = "";
    let previousReply = "";
    for (const [index, turn] of turns.entries()) {
      history.push({ userMessage: turn.words, reply: "" });
      const prompt = render(buildPrompt(state(history, turn)));
      if (index > 0) {
        // What the model held after the last turn: its prompt up to the user's words, then its reply.
        const held = previous.slice(0, previous.lastIndexOf("\n\n["));
        const kept = commonPrefix(held, prompt);
        expect(kept).toBe(held.length);
        expect(prompt.slice(kept)).toContain(previousReply);
      }
      const reply = `Reply ${index}`;
      history.at(-1)!.reply = reply;
      previous = prompt;
      previousReply = reply;
    }
  });

  it("puts what changes per turn after the newest user message, and the stable part in the system prompt", () => {
    const history: Exchange[] = [
      { userMessage: "##first-message##", reply: "Hi Sam!" },
      { userMessage: "Look, a comet!", reply: "" },
    ];
    const messages = buildPrompt(
      state(history, { time: "Friday, 22:41", name: "Sammy", recent: ["Sam got a new job."] }),
    );
    const system = messages[0]!.content;
    expect(system).toContain("Luna lives on a lighthouse.");
    expect(system).toContain("- Sam has a cat.");
    expect(system).toContain("They met at the harbour.");
    for (const late of ["22:41", "Sammy", "a night nurse", "new job", "comet is due"])
      expect(system).not.toContain(late);
    const last = messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(last.content.startsWith("Look, a comet!\n\n[")).toBe(true);
    expect(last.content).toContain("Sammy's local time: Friday, 22:41.");
    expect(last.content).toContain("Sam goes by Sammy.");
    expect(last.content).toContain("Sammy about themself: a night nurse");
    expect(last.content).toContain("Luna remembers: Sam got a new job.");
    expect(last.content).toContain("A comet is due on Friday.");
    expect(last.content.endsWith("]")).toBe(true);
  });

  it("drops old exchanges in chunks, so the prompt's start stays put for many turns", () => {
    const history: Exchange[] = [];
    const starts: string[] = [];
    for (let i = 0; i < 120; i++) {
      history.push({ userMessage: `message ${i} ${"w ".repeat(20)}`, reply: "" });
      const messages = buildPrompt({
        ...state(history, { time: "Friday, 22:41", recent: [] }),
        contextWindow: 1200,
      });
      starts.push(messages[1]!.content);
      history.at(-1)!.reply = `answer ${i} ${"v ".repeat(10)}`;
    }
    const changes = starts.filter((s, i) => i > 0 && s !== starts[i - 1]).length;
    // About 40 tokens an exchange, a 300-token chunk: the start moves every 7 or 8 turns, not every turn.
    expect(changes).toBeGreaterThan(5);
    expect(changes).toBeLessThan(120 / 5);
    expect(starts.at(-1)).not.toBe(starts[0]);
  });

  it("chooses the earliest cut point whose suffix fits, and keeps the newest exchange whatever its size", () => {
    // Exchanges of 10 tokens, chunks of 30: cut points at 0, 3, 6, 9.
    const costs = Array.from({ length: 10 }, () => 10);
    expect(historyStart(costs, 1000, 30)).toEqual({ start: 0, nextCut: 3 });
    expect(historyStart(costs, 75, 30)).toEqual({ start: 3, nextCut: 6 });
    expect(historyStart(costs, 35, 30)).toEqual({ start: 9, nextCut: 10 });
    expect(historyStart([10, 10, 500], 50, 30).start).toBe(2);
    expect(historyStart([], 50, 30)).toEqual({ start: 0, nextCut: 0 });
  });
});

describe("author's note", () => {
  const history: Exchange[] = [
    { userMessage: "one", reply: "first answer" },
    { userMessage: "two", reply: "second answer" },
    { userMessage: "three", reply: "" },
  ];
  const state = (text: string, depth: number): ChatState => ({
    character: card,
    userName: "Sam",
    summary: "",
    history,
    contextWindow: 4000,
    replyTokens: 100,
    countTokens: countWords,
    authorsNote: { text, depth },
  });

  it("goes with the newest message at depth 0, placeholders filled", () => {
    const messages = buildPrompt(state("{{char}} speaks in rhymes to {{user}}.", 0));
    expect(messages.at(-1)!.content).toBe("three\n\n[Author's note: Luna speaks in rhymes to Sam.]");
    expect(messages.filter((m) => m.content.includes("Author's note"))).toHaveLength(1);
  });

  it("goes `depth` messages from the end, never into the system prompt while there is history", () => {
    const two = buildPrompt(state("Be brief.", 2));
    expect(two.at(-3)!.content).toBe("two\n\n[Author's note: Be brief.]");
    const deep = buildPrompt(state("Be brief.", 50));
    expect(deep[0]!.content).not.toContain("Author's note");
    expect(deep[1]!.content).toBe("one\n\n[Author's note: Be brief.]");
  });

  it("is left out when blank", () => {
    const messages = buildPrompt(state("   ", 0));
    expect(messages.some((m) => m.content.includes("Author's note"))).toBe(false);
  });
});
