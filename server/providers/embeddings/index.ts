// Choosing the text-embedding model from configuration: a GGUF in process, an OpenAI-compatible endpoint, or none (recall ranks by words only).
import fs from "node:fs";
import { type AppConfig, invalidConfiguration } from "../../env";
import type { Embedder } from "./embeddings";
import { LlamaEmbedder } from "./llama";
import { OpenAiEmbedder } from "./openai";

/** The settings the embedder is chosen from (server/env.ts, docs/configuration.md). */
export type EmbedderSettings = Pick<
  AppConfig,
  | "EMBEDDING_MODEL_PATH"
  | "EMBEDDING_BASE_URL"
  | "EMBEDDING_MODEL"
  | "EMBEDDING_API_KEY"
  | "EMBEDDING_TIMEOUT_MS"
  | "LLM_THREADS"
  | "LLM_GPU"
>;

/**
 * The one place that maps configuration to a text-embedding model:
 * - EMBEDDING_MODEL_PATH: that GGUF in process (loaded on first use, with LLM_THREADS and LLM_GPU);
 * - EMBEDDING_BASE_URL with EMBEDDING_MODEL (and EMBEDDING_API_KEY when the endpoint needs one):
 *   an OpenAI-compatible `/embeddings`, EMBEDDING_TIMEOUT_MS per request;
 * - neither: null, embeddings are off (the default) and recall ranks by words alone.
 * @throws Error "Invalid configuration:" when both are set, when EMBEDDING_BASE_URL has no
 *   EMBEDDING_MODEL, or when EMBEDDING_MODEL_PATH names no file (so the server stops at boot
 *   instead of failing on the first recall).
 */
export function createEmbedder(settings: EmbedderSettings): Embedder | null {
  const { EMBEDDING_MODEL_PATH: modelPath, EMBEDDING_BASE_URL: baseUrl } = settings;
  if (modelPath && baseUrl) {
    throw invalidConfiguration(["EMBEDDING_MODEL_PATH: set it or EMBEDDING_BASE_URL, not both"]);
  }
  if (modelPath) {
    if (!fs.statSync(modelPath, { throwIfNoEntry: false })?.isFile()) {
      throw invalidConfiguration([`EMBEDDING_MODEL_PATH: no GGUF file at ${modelPath}`]);
    }
    return new LlamaEmbedder({ modelPath, threads: settings.LLM_THREADS, gpu: settings.LLM_GPU });
  }
  if (baseUrl) {
    if (!settings.EMBEDDING_MODEL) {
      throw invalidConfiguration(["EMBEDDING_MODEL: required with EMBEDDING_BASE_URL"]);
    }
    return new OpenAiEmbedder({
      baseUrl,
      apiKey: settings.EMBEDDING_API_KEY,
      model: settings.EMBEDDING_MODEL,
      timeoutMs: settings.EMBEDDING_TIMEOUT_MS,
    });
  }
  return null;
}

export type { Embedder } from "./embeddings";
export { bufferToVector, vectorToBuffer } from "./embeddings";
