import { describe, expect, it } from "vitest";
import { loadConfig } from "../../env";
import { TINY_MODEL_PATH } from "../../testing/server";
import { createEmbedder, type EmbedderSettings } from "./index";
import { LlamaEmbedder } from "./llama";
import { OpenAiEmbedder } from "./openai";

const off: EmbedderSettings = {
  EMBEDDING_MODEL_PATH: "",
  EMBEDDING_BASE_URL: "",
  EMBEDDING_MODEL: "",
  EMBEDDING_API_KEY: "",
  EMBEDDING_TIMEOUT_MS: 15_000,
  LLM_THREADS: 1,
  LLM_GPU: "off",
};

describe("createEmbedder: the one place configuration picks the embedding model", () => {
  it("is off (null) by default", () => {
    expect(createEmbedder(loadConfig({}))).toBeNull();
    expect(createEmbedder(off)).toBeNull();
  });

  it("picks an OpenAI-compatible endpoint named by its model", () => {
    const embedder = createEmbedder({
      ...off,
      EMBEDDING_BASE_URL: "http://127.0.0.1:9/v1",
      EMBEDDING_MODEL: "bge-m3",
    });
    expect(embedder).toBeInstanceOf(OpenAiEmbedder);
    expect(embedder?.id).toBe("openai:bge-m3");
  });

  it("picks a GGUF in process, named by its file, without loading it", () => {
    const embedder = createEmbedder({ ...off, EMBEDDING_MODEL_PATH: TINY_MODEL_PATH });
    expect(embedder).toBeInstanceOf(LlamaEmbedder);
    expect(embedder?.id).toBe("gguf:stories260K.gguf");
  });

  it("refuses a missing file, an endpoint without a model, and both at once", () => {
    expect(() => createEmbedder({ ...off, EMBEDDING_MODEL_PATH: "/nonexistent/e.gguf" })).toThrow(
      /Invalid configuration:\n {2}EMBEDDING_MODEL_PATH: no GGUF file at \/nonexistent\/e\.gguf/,
    );
    expect(() => createEmbedder({ ...off, EMBEDDING_BASE_URL: "http://x/v1" })).toThrow(
      /EMBEDDING_MODEL: required with EMBEDDING_BASE_URL/,
    );
    expect(() =>
      createEmbedder({ ...off, EMBEDDING_MODEL_PATH: TINY_MODEL_PATH, EMBEDDING_BASE_URL: "http://x/v1" }),
    ).toThrow(/not both/);
  });
});
