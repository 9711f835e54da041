import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { promptCacheFields } from "./index";
import { OpenAiProvider } from "./openai";

interface Recorded {
  path: string;
  auth: string | undefined;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    stream?: boolean;
    max_tokens?: number;
    prompt_cache_key?: string;
    cache_prompt?: boolean;
  };
}

/**
 * A local HTTP server speaking the Chat Completions wire format (plain JSON and server-sent
 * events), standing in for llama.cpp server, Ollama, vLLM or OpenAI.
 */
function startCompletionsServer(recorded: Recorded[]) {
  return http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => {
      raw += d;
    });
    req.on("end", () => {
      const body = JSON.parse(raw) as Recorded["body"];
      recorded.push({ path: req.url ?? "", auth: req.headers.authorization, body });
      const last = body.messages.at(-1)?.content ?? "";
      const words = ["Hello", " there,", " you", ` said: ${last}`];
      if (!body.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "cmpl-1",
            object: "chat.completion",
            created: 1,
            model: body.model,
            choices: [
              { index: 0, finish_reason: "stop", message: { role: "assistant", content: words.join("") } },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const w of words) {
        const chunk = {
          id: "cmpl-2",
          object: "chat.completion.chunk",
          created: 1,
          model: body.model,
          choices: [{ index: 0, delta: { content: w }, finish_reason: null }],
        };
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      }
      res.write("data: [DONE]\n\n");
      res.end();
    });
  });
}

describe("openai provider against a local Chat Completions server", () => {
  const recorded: Recorded[] = [];
  const server = startCompletionsServer(recorded);
  let provider: OpenAiProvider;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    provider = new OpenAiProvider({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: "sk-test",
      model: "qwen2.5-1.5b-instruct",
      contextSize: 8192,
      timeoutMs: 5000,
    });
  });
  afterAll(() => {
    server.close();
  });

  const messages = [
    { role: "system" as const, content: "You are Luna." },
    { role: "user" as const, content: "Hi Luna" },
  ];

  it("sends the messages, model and key, and reads a plain completion", async () => {
    const result = await provider.generate({ messages, maxTokens: 64, temperature: 0.7 });
    expect(result.text).toBe("Hello there, you said: Hi Luna");
    const req = recorded.at(-1)!;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.auth).toBe("Bearer sk-test");
    expect(req.body).toMatchObject({ model: "qwen2.5-1.5b-instruct", messages, max_tokens: 64 });
    expect(req.body.stream).toBeFalsy();
  });

  it("streams a completion chunk by chunk", async () => {
    const chunks: string[] = [];
    const result = await provider.generate({ messages, maxTokens: 64, onTextChunk: (c) => chunks.push(c) });
    // The pieces of one network read come as one.
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.join("")).toBe("Hello there, you said: Hi Luna");
    expect(result.text).toBe("Hello there, you said: Hi Luna");
    expect(recorded.at(-1)!.body.stream).toBe(true);
  });

  it("reports the configured context window and estimates tokens", () => {
    expect(provider.contextWindow()).toBe(8192);
    expect(provider.countTokens("x".repeat(40))).toBe(10);
  });
});

describe("prompt-cache fields for OpenAI-wire endpoints", () => {
  it("chooses them by LLM_PROMPT_CACHE and the endpoint's host", () => {
    expect(promptCacheFields("auto", "https://api.openai.com/v1")).toEqual(["prompt_cache_key"]);
    for (const local of [
      "http://127.0.0.1:8080/v1",
      "http://localhost:11434/v1",
      "http://llama:8080/v1",
      "http://192.168.1.9:8080/v1",
    ])
      expect(promptCacheFields("auto", local)).toEqual(["cache_prompt"]);
    expect(promptCacheFields("auto", "https://openrouter.ai/api/v1")).toEqual([]);
    expect(promptCacheFields("off", "https://api.openai.com/v1")).toEqual([]);
    expect(promptCacheFields("prompt_cache_key, cache_prompt", "https://example.com/v1")).toEqual([
      "prompt_cache_key",
      "cache_prompt",
    ]);
  });

  it("sends a stable digest of the request's cache key and cache_prompt, only when configured", async () => {
    const recorded: Recorded[] = [];
    const server = startCompletionsServer(recorded);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const make = (cacheFields: Array<"prompt_cache_key" | "cache_prompt">) =>
      new OpenAiProvider({
        baseUrl: `http://127.0.0.1:${port}/v1`,
        apiKey: "",
        model: "m",
        contextSize: 4096,
        timeoutMs: 5000,
        cacheFields,
      });
    const request = { messages: [{ role: "user" as const, content: "hi" }], maxTokens: 8 };
    try {
      const both = make(["prompt_cache_key", "cache_prompt"]);
      await both.generate({ ...request, cacheKey: "chat:s1:c1" });
      await both.generate({ ...request, cacheKey: "chat:s1:c1", onTextChunk: () => {} });
      await both.generate({ ...request, cacheKey: "chat:s2:c1" });
      const [first, second, other] = recorded.map((r) => r.body);
      expect(first!.prompt_cache_key).toMatch(/^[0-9a-f]{32}$/);
      expect(first!.prompt_cache_key).not.toContain("s1");
      expect(second!.prompt_cache_key).toBe(first!.prompt_cache_key);
      expect(other!.prompt_cache_key).not.toBe(first!.prompt_cache_key);
      expect(first!.cache_prompt).toBe(true);
      await make([]).generate({ ...request, cacheKey: "chat:s1:c1" });
      expect(recorded.at(-1)!.body).not.toHaveProperty("prompt_cache_key");
      expect(recorded.at(-1)!.body).not.toHaveProperty("cache_prompt");
    } finally {
      server.close();
    }
  });
});
