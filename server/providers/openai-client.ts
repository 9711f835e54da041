// The official OpenAI SDK's client for an OpenAI-compatible endpoint, as the vision provider uses it: a time limit and one retry.
import type OpenAI from "openai";
import { lazyModule } from "../lazy-module";
import type { ModelEndpointOptions } from "./http";

/** The OpenAI SDK, loaded when a provider that uses it is built, not at startup. */
const loadOpenAi = lazyModule<typeof import("openai")>("openai");

/** An OpenAI-compatible Chat Completions endpoint (LLM_* or VISION_* settings). */
export interface ChatEndpointOptions extends ModelEndpointOptions {
  /** Milliseconds before one request is given up. */
  timeoutMs: number;
}

/**
 * The official SDK's client for an OpenAI-compatible endpoint, as the chat and vision providers
 * use it: `timeoutMs` per request, one retry. Local servers accept any key; the SDK insists on
 * one, so an empty key is sent as "not-needed".
 */
export function openAiClient(options: ChatEndpointOptions): OpenAI {
  return new (loadOpenAi().OpenAI)({
    baseURL: options.baseUrl,
    apiKey: options.apiKey || "not-needed",
    timeout: options.timeoutMs,
    maxRetries: 1,
  });
}
