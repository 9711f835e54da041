import { TtsFailedError, type TtsProvider, type VoiceEntry } from "./tts";

export interface OpenAiTtsOptions {
  /** Base URL up to and including /v1, e.g. http://localhost:8880/v1 (Kokoro-FastAPI). */
  baseUrl: string;
  apiKey: string;
  /** e.g. "tts-1", "kokoro". */
  model: string;
  /** Voices used for seeded entries written for another provider, by sex. */
  femaleVoice: string;
  maleVoice: string;
  timeoutMs: number;
}

/**
 * Any OpenAI-compatible speech endpoint (issue 7): `POST {base}/audio/speech` with JSON
 * `{ model, input, voice, response_format: "mp3" }`, answering MP3 bytes. Works with
 * OpenAI, Kokoro-FastAPI, openedai-speech and LocalAI.
 */
export class OpenAiTts implements TtsProvider {
  readonly name = "openai";
  constructor(private readonly options: OpenAiTtsOptions) {}

  voiceFor(entry: VoiceEntry): string {
    if (entry.provider === this.name && entry.provider_voice) return entry.provider_voice;
    return entry.sex === "1" ? this.options.maleVoice : this.options.femaleVoice;
  }

  async synthesize(text: string, voice: string): Promise<{ audio: Buffer; extension: string }> {
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl.replace(/\/+$/, "")}/audio/speech`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.options.model, input: text, voice, response_format: "mp3" }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new TtsFailedError(this.name, error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw new TtsFailedError(this.name, `HTTP ${response.status}`);
    const audio = Buffer.from(await response.arrayBuffer());
    if (audio.length === 0) throw new TtsFailedError(this.name, "empty audio");
    return { audio, extension: "mp3" };
  }

  async close(): Promise<void> {}
}
