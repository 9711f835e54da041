import { describe, expect, it } from "vitest";
import { buildPrompt, buildSystemPrompt, type CharacterCard, cleanReply, fillPlaceholders } from "./prompt";

const card: CharacterCard = {
  name: "Luna",
  sex: "0",
  backstory: "{{char}} studies the stars and likes {{user}}'s jokes.",
  appearance: "Long dark hair",
  greeting: "Hi {{user}}!",
  language: "French",
};
const countWords = (t: string) => t.split(/\s+/).filter(Boolean).length;

describe("prompt assembly", () => {
  it("fills {{char}} and {{user}} in every card field", () => {
    expect(fillPlaceholders("{{CHAR}} meets {{user}}", "Luna", "Sam")).toBe("Luna meets Sam");
    const system = buildSystemPrompt(card, "Sam", "");
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
    const total = messages.reduce((n, m) => n + countWords(m.content) + 8, 0);
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
    const censored = buildSystemPrompt(card, "Sam", "");
    expect(censored).toContain("free of explicit sexual content");
    const uncensored = buildSystemPrompt(card, "Sam", "", [], [], true);
    expect(uncensored).toContain("Adult themes between consenting adults are allowed when Sam wants them.");
    for (const prompt of [censored, uncensored])
      expect(prompt).toContain("Never write sexual content involving minors.");
  });

  it("cuts text the model writes for the user and a leading name", () => {
    expect(cleanReply("Luna: Hello! *waves*\nSam: hi back", "Luna", "Sam")).toBe("Hello! *waves*");
    expect(cleanReply("  Plain reply  ", "Luna", "Sam")).toBe("Plain reply");
  });
});
