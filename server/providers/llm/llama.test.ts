import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TINY_MODEL_PATH } from "../../testing/server";
import { type LlamaGpu, LlamaProvider } from "./llama";
import type { ChatMessage } from "./llm";

const hasModel = fs.existsSync(TINY_MODEL_PATH);
if (!hasModel)
  console.warn(`SKIPPED llama provider: ${TINY_MODEL_PATH} not found (../shared/models is missing).`);

describe.skipIf(!hasModel)("llama provider with the tiny real GGUF (stories260K)", () => {
  let provider: LlamaProvider;
  beforeAll(async () => {
    provider = new LlamaProvider({
      modelPath: TINY_MODEL_PATH,
      contextSize: 512,
      threads: 1,
      parallel: 2,
      cachedSequences: 3,
      gpu: "off",
      backgroundYield: { quietMs: 50, quietForMs: 30_000, maxWaitMs: 30_000 },
    });
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

  it("sends a chat back to the sequence that holds its prefix and evaluates only what is new", async () => {
    const turn = (name: string, n: number) => {
      const messages: ChatMessage[] = [
        { role: "system", content: `You are ${name}. Once upon a time there was a cat.` },
      ];
      for (let i = 0; i < n; i++) {
        messages.push({ role: "user", content: `Tell me more, part ${i}` });
        messages.push({ role: "assistant", content: `The cat ran ${i} times around the tree.` });
      }
      messages.push({ role: "user", content: `Tell me more, part ${n}` });
      return messages;
    };
    const ask = (key: string, name: string, n: number) =>
      provider.generate({ messages: turn(name, n), maxTokens: 4, temperature: 0, cacheKey: key });
    const first = await ask("chat:a", "Lily", 3);
    // A sequence another prompt used shares at most the template's first tokens with it.
    const fresh = (r: typeof first) => r.promptTokens!.evaluated > 0.8 * r.promptTokens!.total;
    expect(fresh(first)).toBe(true);
    const home = new Map(provider.cachedKeys()).get("chat:a");
    // Two other chats in between: three sequences hold all three.
    await ask("chat:b", "Tom", 1);
    await ask("chat:c", "Ann", 2);
    const next = await ask("chat:a", "Lily", 4);
    expect(new Map(provider.cachedKeys()).get("chat:a")).toBe(home);
    // Only the last reply, the new message and the template's markers are evaluated.
    expect(next.promptTokens!.total).toBeGreaterThan(first.promptTokens!.total);
    expect(next.promptTokens!.evaluated).toBeLessThan(
      next.promptTokens!.total - first.promptTokens!.total + 16,
    );
    // A fourth chat evicts the least recently used (chat:b), not chat:a.
    await ask("chat:d", "Max", 1);
    const keys = new Map(provider.cachedKeys());
    expect(keys.has("chat:b")).toBe(false);
    expect(keys.get("chat:a")).toBe(home);
    expect(fresh(await ask("chat:b", "Tom", 2))).toBe(true);
  });

  it("starts a background request issued during a reply only after the reply ended", async () => {
    const events: string[] = [];
    let background: Promise<unknown> | undefined;
    const reply = provider.generate({
      messages: [{ role: "user", content: "Tell a long story" }],
      maxTokens: 60,
      temperature: 0,
      onTextChunk: () => {
        events.push("reply");
        background ??= provider.generate({
          messages: [{ role: "user", content: "The dog" }],
          maxTokens: 12,
          temperature: 0,
          cacheKey: "memory:facts",
          background: true,
          onTextChunk: () => events.push("background"),
        });
      },
    });
    await reply;
    events.push("reply ended");
    await background;
    expect(events.filter((e) => e === "reply").length).toBeGreaterThan(5);
    expect(events.indexOf("background")).toBeGreaterThan(events.indexOf("reply ended"));
  });

  it("pauses a background request while a reply generates, and continues it after the reply", async () => {
    const events: string[] = [];
    let reply: Promise<unknown> | undefined;
    let backgroundChunks = 0;
    const background = provider.generate({
      messages: [{ role: "user", content: "Tell a long story" }],
      maxTokens: 120,
      temperature: 0,
      cacheKey: "memory:summary",
      background: true,
      onTextChunk: (chunk) => {
        events.push(`background:${chunk}`);
        backgroundChunks += 1;
        if (backgroundChunks === 3) {
          reply = provider
            .generate({
              messages: [{ role: "user", content: "Once upon a time" }],
              maxTokens: 60,
              temperature: 0,
              onTextChunk: () => events.push("reply"),
            })
            .then(() => events.push("reply ended"));
        }
      },
    });
    const result = await background;
    await reply;
    const firstReply = events.indexOf("reply");
    const replyEnded = events.indexOf("reply ended");
    expect(firstReply).toBeGreaterThan(0);
    expect(replyEnded).toBeLessThan(events.length - 1);
    // While the reply generated, the background request stood still (one token may have been under way).
    const during = events.slice(firstReply, replyEnded).filter((e) => e.startsWith("background:"));
    expect(during.length).toBeLessThanOrEqual(1);
    // It went on after the reply, and its text is what it streamed before and after, once.
    expect(events.slice(replyEnded + 1).some((e) => e.startsWith("background:"))).toBe(true);
    const streamed = events.filter((e) => e.startsWith("background:")).map((e) => e.slice(11));
    expect(result.text).toBe(streamed.join(""));
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

describe.skipIf(!hasModel)("llama provider's LLM_GPU setting", () => {
  /** node-llama-cpp itself, with getLlama's options recorded. */
  async function recordingLibrary(asked: unknown[]) {
    const lib = await import("node-llama-cpp");
    return {
      ...lib,
      getLlama: ((options: unknown) => {
        asked.push(options);
        return lib.getLlama(options as never);
      }) as typeof lib.getLlama,
    };
  }

  for (const [setting, expected] of [
    ["off", false],
    ["auto", "auto"],
  ] as Array<[LlamaGpu, false | "auto"]>) {
    it(`passes LLM_GPU=${setting} to node-llama-cpp as gpu: ${String(expected)}, never building`, async () => {
      const asked: unknown[] = [];
      const provider = new LlamaProvider({
        modelPath: TINY_MODEL_PATH,
        contextSize: 256,
        threads: 1,
        parallel: 1,
        gpu: setting,
        library: () => recordingLibrary(asked),
      });
      try {
        await provider.load();
        expect(asked).toEqual([expect.objectContaining({ gpu: expected, build: "never" })]);
        // This machine has no GPU: auto falls back to the CPU, and says so.
        if (setting === "off") expect(provider.gpu()).toBe(false);
        const result = await provider.generate({
          messages: [{ role: "user", content: "Once" }],
          maxTokens: 2,
        });
        expect(result.promptTokens!.total).toBeGreaterThan(0);
      } finally {
        await provider.close();
      }
    });
  }
});
