// The language model through any OpenAI-compatible Chat Completions endpoint (llama.cpp server, Ollama, vLLM, LM Studio, OpenAI, OpenRouter).
import { createHash } from "node:crypto";
import type { ChatEndpointOptions } from "../openai-client";
import { ChatCompletionsClient } from "./chat-completions";
import {
  estimateTokens,
  type GenerateRequest,
  type GenerateResult,
  type LlmProvider,
  type ProviderStatus,
} from "./llm";

/** A request field that lets an OpenAI-wire endpoint reuse a cached prompt prefix. */
export type PromptCacheField = "prompt_cache_key" | "cache_prompt";

export interface OpenAiOptions extends ChatEndpointOptions {
  /** Context window of the served model in tokens (the endpoint does not report it). */
  contextSize: number;
  /**
   * Prompt-cache fields sent with each request (index.ts `promptCacheFields`): `prompt_cache_key`
   * is the request's cache key (a chat and character), `cache_prompt` is `true`. None by default.
   */
  cacheFields?: PromptCacheField[];
}

/**
 * Any OpenAI-compatible Chat Completions endpoint (provider `openai`): llama.cpp server,
 * Ollama, vLLM, LM Studio, OpenAI, OpenRouter, through `ChatCompletionsClient` (the
 * official SDK is kept for the vision provider, off the chat's hot path). Streams the reply when
 * a chunk callback is given. Token counts are estimates (no tokenizer is at hand).
 */
export class OpenAiProvider implements LlmProvider {
  readonly name = "openai";
  private readonly client: ChatCompletionsClient;

  constructor(private readonly options: OpenAiOptions) {
    this.client = new ChatCompletionsClient(options);
  }

  contextWindow(): number {
    return this.options.contextSize;
  }

  status(): ProviderStatus {
    return { ready: true, message: "ready" };
  }

  countTokens(text: string): number {
    return estimateTokens(text);
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const started = performance.now();
    const body = {
      model: this.options.model,
      messages: request.messages,
      max_tokens: request.maxTokens,
      temperature: request.temperature,
      stop: request.stop?.length ? request.stop.slice(0, 4) : undefined,
      ...this.cacheFields(request.cacheKey),
    };
    const text = request.onTextChunk
      ? await this.client.stream(body, request.onTextChunk, request.signal)
      : await this.client.complete(body, request.signal);
    return { text, modelMs: performance.now() - started };
  }

  private cacheFields(key: string | undefined): { prompt_cache_key?: string; cache_prompt?: boolean } {
    const fields = this.options.cacheFields ?? [];
    return {
      // A digest: the endpoint learns which requests share a cache, not our ids.
      ...(key && fields.includes("prompt_cache_key")
        ? { prompt_cache_key: createHash("sha256").update(key).digest("hex").slice(0, 32) }
        : {}),
      ...(fields.includes("cache_prompt") ? { cache_prompt: true } : {}),
    };
  }

  async close(): Promise<void> {}
}
