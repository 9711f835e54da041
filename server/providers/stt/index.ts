// Choosing speech to text from configuration: an OpenAI-compatible transcription endpoint when STT_BASE_URL is set, else none.
import type { AppConfig } from "../../env";
import { OpenAiStt } from "./openai";
import { NoStt, type SttProvider } from "./stt";

/**
 * The one place that maps configuration to a speech-to-text engine: an
 * OpenAI-compatible transcription endpoint when STT_BASE_URL is set, else none.
 */
export function createStt(
  config: Pick<AppConfig, "STT_BASE_URL" | "STT_API_KEY" | "STT_MODEL" | "STT_TIMEOUT_MS">,
): SttProvider {
  if (!config.STT_BASE_URL) return new NoStt();
  return new OpenAiStt({
    baseUrl: config.STT_BASE_URL,
    apiKey: config.STT_API_KEY,
    model: config.STT_MODEL,
    timeoutMs: config.STT_TIMEOUT_MS,
  });
}
