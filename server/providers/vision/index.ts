// Choosing the vision model from configuration: its own OpenAI-compatible endpoint, the chat model reused, or none.
import { type AppConfig, invalidConfiguration } from "../../env";
import { OpenAiVision } from "./openai";
import { NoVision, type VisionProvider } from "./vision";

/**
 * The one place that maps configuration to a vision model: VISION_BASE_URL and
 * VISION_MODEL name an OpenAI-compatible endpoint; VISION_USE_LLM=1 reuses LLM_BASE_URL,
 * LLM_API_KEY and LLM_MODEL (a multimodal chat model); otherwise there is none.
 * @throws Error when VISION_BASE_URL is set without VISION_MODEL, or VISION_USE_LLM=1 without LLM_BASE_URL.
 */
export function createVision(config: AppConfig): VisionProvider {
  const endpoint = visionEndpoint(config);
  return endpoint ? new OpenAiVision({ ...endpoint, timeoutMs: config.VISION_TIMEOUT_MS }) : new NoVision();
}

/**
 * The OpenAI-compatible endpoint the configuration names for vision, or undefined for none.
 * @throws Error as createVision.
 */
function visionEndpoint(config: AppConfig): { baseUrl: string; apiKey: string; model: string } | undefined {
  if (config.VISION_BASE_URL) {
    if (!config.VISION_MODEL) throw invalidConfiguration(["VISION_MODEL: required with VISION_BASE_URL"]);
    return { baseUrl: config.VISION_BASE_URL, apiKey: config.VISION_API_KEY, model: config.VISION_MODEL };
  }
  if (config.VISION_USE_LLM === "1") {
    if (!config.LLM_BASE_URL) {
      throw invalidConfiguration(["VISION_USE_LLM: needs LLM_BASE_URL (an OpenAI-compatible endpoint)"]);
    }
    return { baseUrl: config.LLM_BASE_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL };
  }
  return undefined;
}
