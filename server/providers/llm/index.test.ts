import os from "node:os";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../env";
import { TINY_MODEL_PATH } from "../../testing/server";
import { createLlm } from "./index";

const base = { DATA_DIR: os.tmpdir(), LLM_AUTO_DOWNLOAD: "0" };

describe("choosing the language-model provider from configuration", () => {
  it("picks openai when LLM_BASE_URL is set, and insists on a model name", () => {
    const lines: string[] = [];
    const { llm } = createLlm(
      loadConfig({ ...base, LLM_BASE_URL: "http://127.0.0.1:9/v1", LLM_MODEL: "m" }),
      (l) => lines.push(l),
    );
    expect(llm.name).toBe("openai");
    expect(() =>
      createLlm(loadConfig({ ...base, LLM_PROVIDER: "openai", LLM_BASE_URL: "http://x/v1" }), () => {}),
    ).toThrow(/LLM_MODEL/);
  });

  it("picks llama when LLM_MODEL_PATH is set and loads it once", async () => {
    const lines: string[] = [];
    const { llm, ready } = createLlm(
      loadConfig({ ...base, LLM_MODEL_PATH: TINY_MODEL_PATH, LLM_THREADS: "1" }),
      (l) => lines.push(l),
    );
    await ready;
    expect(llm.name).toBe("llama");
    expect(llm.status().ready).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/^Language model loaded: /)]);
    await llm.close();
  });

  it("without a model says, in one line, how to configure one, and chats fail with that message", async () => {
    const lines: string[] = [];
    const { llm, ready } = createLlm(loadConfig(base), (l) => lines.push(l));
    await ready;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/LLM_MODEL_PATH.*LLM_BASE_URL/);
    expect(llm.status().ready).toBe(false);
    await expect(llm.generate({ messages: [], maxTokens: 1 })).rejects.toThrow(/not configured/);
  });

  it("rejects invalid configuration at start with the variable's name", () => {
    expect(() => loadConfig({ LLM_PROVIDER: "gpt" })).toThrow(/LLM_PROVIDER/);
    expect(() => loadConfig({ PORT: "http" })).toThrow(/PORT/);
  });
});
