// Choosing text to speech from configuration: an OpenAI-compatible endpoint, ElevenLabs, the embedded eSpeak NG, or none.
import type { AppConfig } from "../../env";
import { ElevenLabsTts } from "./elevenlabs";
import { EspeakTts } from "./espeak";
import { OpenAiTts } from "./openai";
import { NoTts, type TtsProvider } from "./tts";

type TtsConfig = Pick<
  AppConfig,
  | "TTS_PROVIDER"
  | "TTS_BASE_URL"
  | "TTS_API_KEY"
  | "TTS_MODEL"
  | "TTS_VOICE_FEMALE"
  | "TTS_VOICE_MALE"
  | "TTS_TIMEOUT_MS"
  | "ELEVENLABS_API_KEY"
  | "ELEVENLABS_BASE_URL"
  | "ELEVENLABS_MODEL"
  | "ELEVENLABS_VOICE_FEMALE"
  | "ELEVENLABS_VOICE_MALE"
>;

/**
 * The one place that maps configuration to a text-to-speech engine:
 * - `openai` (or `auto` with TTS_BASE_URL): an OpenAI-compatible `/audio/speech` endpoint;
 * - `elevenlabs` (or `auto` with ELEVENLABS_API_KEY): ElevenLabs;
 * - `espeak` (or `auto` with neither): the embedded offline eSpeak NG;
 * - `none`: spoken replies and voice previews are off.
 * @throws Error for contradictory configuration (openai without TTS_BASE_URL, elevenlabs without a key).
 */
export function createTts(config: TtsConfig): TtsProvider {
  const kind =
    config.TTS_PROVIDER !== "auto"
      ? config.TTS_PROVIDER
      : config.TTS_BASE_URL
        ? "openai"
        : config.ELEVENLABS_API_KEY
          ? "elevenlabs"
          : "espeak";
  switch (kind) {
    case "openai":
      if (!config.TTS_BASE_URL) throw new Error("TTS_PROVIDER=openai needs TTS_BASE_URL.");
      return new OpenAiTts({
        baseUrl: config.TTS_BASE_URL,
        apiKey: config.TTS_API_KEY,
        model: config.TTS_MODEL,
        femaleVoice: config.TTS_VOICE_FEMALE,
        maleVoice: config.TTS_VOICE_MALE,
        timeoutMs: config.TTS_TIMEOUT_MS,
      });
    case "elevenlabs":
      if (!config.ELEVENLABS_API_KEY) throw new Error("TTS_PROVIDER=elevenlabs needs ELEVENLABS_API_KEY.");
      return new ElevenLabsTts({
        baseUrl: config.ELEVENLABS_BASE_URL,
        apiKey: config.ELEVENLABS_API_KEY,
        model: config.ELEVENLABS_MODEL,
        femaleVoice: config.ELEVENLABS_VOICE_FEMALE,
        maleVoice: config.ELEVENLABS_VOICE_MALE,
        timeoutMs: config.TTS_TIMEOUT_MS,
      });
    case "none":
      return new NoTts();
    default:
      return new EspeakTts();
  }
}
