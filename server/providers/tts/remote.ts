// What the hosted speech engines share: the voice chosen for a seeded voice and one JSON POST answered with MP3.
import { type ModelEndpointOptions, ProviderHttpError, postJson } from "../http";
import { TtsFailedError, type TtsProvider, type VoiceEntry } from "./tts";

/** Settings of a hosted speech endpoint (TTS_* or ELEVENLABS_*). */
export interface RemoteTtsOptions extends ModelEndpointOptions {
  /** The provider's voice ids used for seeded entries written for another provider, by sex. */
  femaleVoice: string;
  maleVoice: string;
  /** Milliseconds before one synthesis request is given up (TTS_TIMEOUT_MS). */
  timeoutMs: number;
}

/** One speech request in a provider's own wire format. */
export interface SpeechRequest {
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON. */
  body: unknown;
}

/**
 * What the hosted speech clients share: the voice chosen for an entry of the voices
 * table, and one JSON POST answered with MP3 bytes. Subclasses give only their wire format.
 */
export abstract class RemoteTts implements TtsProvider {
  abstract readonly name: string;
  constructor(protected readonly options: RemoteTtsOptions) {}

  /** The wire format: where to POST, with which headers and JSON body. */
  protected abstract speechRequest(text: string, voice: string): SpeechRequest;

  voiceFor(entry: VoiceEntry): string {
    if (entry.provider === this.name && entry.provider_voice) return entry.provider_voice;
    return entry.sex === "1" ? this.options.maleVoice : this.options.femaleVoice;
  }

  /**
   * @returns the MP3 bytes the endpoint answered.
   * @throws TtsFailedError (502) naming the provider when the endpoint cannot be reached, times
   *   out, answers non-2xx (`HTTP <status>`) or answers no audio.
   */
  async synthesize(text: string, voice: string): Promise<{ audio: Buffer; extension: string }> {
    const { url, headers, body } = this.speechRequest(text, voice);
    let audio: Buffer;
    try {
      const response = await postJson(url, body, { headers, timeoutMs: this.options.timeoutMs });
      audio = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      throw new TtsFailedError(this.name, error instanceof ProviderHttpError ? error.reason : String(error));
    }
    if (audio.length === 0) throw new TtsFailedError(this.name, "empty audio");
    return { audio, extension: "mp3" };
  }

  async close(): Promise<void> {}
}
