import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TINY_MODEL_PATH } from "../../testing/server";
import { LlamaProvider } from "./llama";

const hasModel = fs.existsSync(TINY_MODEL_PATH);
if (!hasModel)
  console.warn(`SKIPPED llama provider: ${TINY_MODEL_PATH} not found (../shared/models is missing).`);

describe.skipIf(!hasModel)("llama provider with the tiny real GGUF (stories260K)", () => {
  let provider: LlamaProvider;
  beforeAll(async () => {
    provider = new LlamaProvider({ modelPath: TINY_MODEL_PATH, contextSize: 512, threads: 1, parallel: 2 });
    await provider.load();
  });
  afterAll(async () => {
    await provider?.close();
  });

  it("loads once, reports its context window and counts tokens with the model's tokenizer", async () => {
    await provider.load();
    expect(provider.status().ready).toBe(true);
    expect(provider.contextWindow()).toBe(512);
    const tokens = provider.countTokens("Once upon a time there was a little girl.");
    expect(tokens).toBeGreaterThan(3);
    expect(tokens).toBeLessThan(40);
  });

  it("generates real text and streams it in chunks", async () => {
    const chunks: string[] = [];
    const result = await provider.generate({
      messages: [
        { role: "system", content: "You are Lily." },
        { role: "user", content: "Once upon a time" },
      ],
      maxTokens: 24,
      temperature: 0,
      onTextChunk: (c) => chunks.push(c),
    });
    expect(result.text.trim().length).toBeGreaterThan(5);
    expect(result.text).toMatch(/[a-z]{2,}/);
    expect(chunks.join("")).toBe(result.text);
    expect(result.modelMs).toBeGreaterThan(0);
  });

  it("queues more concurrent chats than it has sequences and answers them all", async () => {
    const prompts = ["The cat", "The dog", "A bird", "The sun"];
    const results = await Promise.all(
      prompts.map((p) =>
        provider.generate({ messages: [{ role: "user", content: p }], maxTokens: 12, temperature: 0 }),
      ),
    );
    for (const r of results) expect(r.text.trim().length).toBeGreaterThan(0);
  });

  it("stops when the abort signal fires", async () => {
    const controller = new AbortController();
    let pieces = 0;
    const result = await provider.generate({
      messages: [{ role: "user", content: "Tell a long story" }],
      maxTokens: 400,
      signal: controller.signal,
      onTextChunk: () => {
        pieces += 1;
        if (pieces === 3) controller.abort();
      },
    });
    expect(pieces).toBeLessThan(20);
    expect(result.text.length).toBeLessThan(400);
  });

  it("renders the prompt with the model's chat template", async () => {
    const { template, text } = await provider.renderPrompt([
      { role: "system", content: "You are Lily, a cheerful girl." },
      { role: "user", content: "Hello Lily" },
      { role: "assistant", content: "Hi! *waves*" },
      { role: "user", content: "How are you?" },
    ]);
    expect(template.length).toBeGreaterThan(0);
    for (const part of ["You are Lily, a cheerful girl.", "Hello Lily", "Hi! *waves*", "How are you?"]) {
      expect(text).toContain(part);
    }
    expect(text.indexOf("Hello Lily")).toBeLessThan(text.indexOf("How are you?"));
    // The template adds its own role markers around the messages.
    expect(text.length).toBeGreaterThan(
      "You are Lily, a cheerful girl.Hello LilyHi! *waves*How are you?".length + 8,
    );
  });

  it("continues an unfinished reply instead of starting a new one", async () => {
    const result = await provider.generate({
      messages: [
        { role: "user", content: "Tell a story" },
        { role: "assistant", content: "Once upon a time there was a" },
      ],
      maxTokens: 10,
      temperature: 0,
    });
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.text.startsWith("Once upon")).toBe(false);
  });

  it("says why when the model file cannot be loaded", async () => {
    const broken = new LlamaProvider({
      modelPath: "/nonexistent/model.gguf",
      contextSize: 512,
      threads: 1,
      parallel: 1,
    });
    await expect(
      broken.generate({ messages: [{ role: "user", content: "hi" }], maxTokens: 4 }),
    ).rejects.toThrow(/could not be loaded from \/nonexistent\/model.gguf/);
  });
});
