import { describe, expect, it } from "vitest";
import { call, demoWithCharacter } from "../../testing/api";
import { startScriptedCompletions } from "../../testing/completions-server";
import { createTestApp } from "../../testing/server";
import { splitReply } from "./split-reply";

describe("split replies at sentence boundaries", () => {
  it("keeps a short reply whole", () => {
    expect(splitReply("Hi! How are you?")).toEqual(["Hi! How are you?"]);
    expect(splitReply("   ")).toEqual([]);
  });

  it("splits a long reply between sentences, never inside one", () => {
    const sentences = [
      "I went to the observatory last night and the sky was perfectly clear.",
      "Jupiter was so bright that I could see four of its moons in a line.",
      "*smiles* Then a meteor crossed the whole sky, right above the dome.",
      "I wished that you could have seen it with me.",
    ];
    const parts = splitReply(sentences.join(" "));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join(" ")).toBe(sentences.join(" "));
    for (const part of parts) {
      expect(sentences.some((s) => part.startsWith(s))).toBe(true);
      expect(part.length).toBeLessThanOrEqual(180);
    }
  });

  it("keeps a long reply with Markdown blocks whole, so its formatting survives", () => {
    const sentence = "This sentence is long enough to make the whole reply go over the threshold.";
    for (const block of [
      "- one\n- two",
      "1. one",
      "```\ncode\n```",
      "## Title",
      "> quoted",
      "| a |\n| - |",
    ]) {
      const text = `${sentence} ${sentence}\n\n${block}\n\n${sentence} ${sentence}`;
      expect(splitReply(text)).toEqual([text]);
    }
    expect(splitReply(`${sentence} *waves* ${sentence} ${sentence}`).length).toBeGreaterThan(1);
  });

  it("never makes more than four messages", () => {
    const long = Array.from(
      { length: 30 },
      (_, i) => `This is sentence number ${i} of a very long reply.`,
    ).join(" ");
    const parts = splitReply(long);
    expect(parts).toHaveLength(4);
    expect(parts.join(" ")).toBe(long);
  });
});

describe("split replies through the API (scripted Chat Completions server)", () => {
  it("answers a long reply as several messages in options, the whole text in the entry", async () => {
    const long =
      "I went to the observatory last night and the sky was perfectly clear. Jupiter was so bright that I could see four of its moons in a line. *smiles* Then a meteor crossed the whole sky, right above the dome. I wished that you could have seen it with me.";
    const llm = await startScriptedCompletions((request) =>
      request.messages[0]!.content.startsWith("You are") ? long : "[]",
    );
    const t = await createTestApp({
      env: { LLM_PROVIDER: "openai", LLM_BASE_URL: llm.baseUrl, LLM_MODEL: "scripted" },
    });
    try {
      const s = await demoWithCharacter(t.app);
      const res = await call(t.app, "POST", "/api/chat/message", {
        token: s.token,
        form: { message: "Tell me!", id: s.characterId },
      });
      const options = res.body.options as { splitCount: number; splitMessages: string[] };
      expect(options.splitCount).toBeGreaterThan(1);
      expect(options.splitMessages).toHaveLength(options.splitCount);
      expect(options.splitMessages.join(" ")).toBe(long);
      expect(res.body.text).toBe(long);
    } finally {
      await t.dispose();
      await llm.close();
    }
  });
});
