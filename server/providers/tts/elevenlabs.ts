import { TtsFailedError, type TtsProvider, type VoiceEntry } from "./tts";

export interface ElevenLabsOptions {
  /** https://api.elevenlabs.io (without /v1). */
  baseUrl: string;
  apiKey: string;
  /** e.g. "eleven_multilingual_v2" (speaks every seeded language). */
  model: string;
  femaleVoice: string;
  maleVoice: string;
  timeoutMs: number;
}

/**
 * ElevenLabs (issue 7): `POST {base}/v1/text-to-speech/{voice_id}?output_format=mp3_22050_32`
 * with the `xi-api-key` header and JSON `{ text, model_id }`, answering MP3 bytes.
 */
export class ElevenLabsTts implements TtsProvider {
  readonly name = "elevenlabs";
  constructor(private readonly options: ElevenLabsOptions) {}

  voiceFor(entry: VoiceEntry): string {
    if (entry.provider === this.name && entry.provider_voice) return entry.provider_voice;
    return entry.sex === "1" ? this.options.maleVoice : this.options.femaleVoice;
  }

  async synthesize(text: string, voice: string): Promise<{ audio: Buffer; extension: string }> {
    const url = `${this.options.baseUrl.replace(/\/+$/, "")}/v1/text-to-speech/${encodeURIComponent(voice)}?output_format=mp3_22050_32`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "audio/mpeg",
          "xi-api-key": this.options.apiKey,
        },
        body: JSON.stringify({ text, model_id: this.options.model }),
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
