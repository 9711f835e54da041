import type OpenAI from "openai";
import { type ChatEndpointOptions, openAiClient } from "../openai-client";
import {
  estimateTokens,
  type GenerateRequest,
  type GenerateResult,
  type LlmProvider,
  type ProviderStatus,
} from "./llm";

export interface OpenAiOptions extends ChatEndpointOptions {
  /** Context window of the served model in tokens (the endpoint does not report it). */
  contextSize: number;
}

/**
 * Any OpenAI-compatible Chat Completions endpoint through the official SDK (issue 2, provider
 * `openai`): llama.cpp server, Ollama, vLLM, LM Studio, OpenAI, OpenRouter. Streams the reply
 * when a chunk callback is given. Token counts are estimates (no tokenizer is at hand).
 */
export class OpenAiProvider implements LlmProvider {
  readonly name = "openai";
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiOptions) {
    this.client = openAiClient(options);
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
    const base = {
      model: this.options.model,
      messages: request.messages,
      max_tokens: request.maxTokens,
      temperature: request.temperature,
      stop: request.stop?.length ? request.stop.slice(0, 4) : undefined,
    };
    if (!request.onTextChunk) {
      const completion = await this.client.chat.completions.create(
        { ...base, stream: false },
        { signal: request.signal },
      );
      return { text: completion.choices[0]?.message?.content ?? "", modelMs: performance.now() - started };
    }
    const stream = await this.client.chat.completions.create(
      { ...base, stream: true },
      { signal: request.signal },
    );
    let text = "";
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta?.content ?? "";
      if (piece) {
        text += piece;
        request.onTextChunk(piece);
      }
    }
    return { text, modelMs: performance.now() - started };
  }

  async close(): Promise<void> {}
}
