// Text to speech by ElevenLabs: its text-to-speech call answering MP3.
import { joinUrl } from "../http";
import { RemoteTts, type RemoteTtsOptions, type SpeechRequest } from "./remote";

/** `baseUrl` https://api.elevenlabs.io (without /v1); `model` e.g. "eleven_multilingual_v2" (speaks every seeded language). */
export type ElevenLabsOptions = RemoteTtsOptions;

/**
 * ElevenLabs: `POST {base}/v1/text-to-speech/{voice_id}?output_format=mp3_22050_32`
 * with the `xi-api-key` header and JSON `{ text, model_id }`, answering MP3 bytes.
 */
export class ElevenLabsTts extends RemoteTts {
  readonly name = "elevenlabs";

  protected speechRequest(text: string, voice: string): SpeechRequest {
    return {
      url: joinUrl(
        this.options.baseUrl,
        `v1/text-to-speech/${encodeURIComponent(voice)}?output_format=mp3_22050_32`,
      ),
      headers: { accept: "audio/mpeg", "xi-api-key": this.options.apiKey },
      body: { text, model_id: this.options.model },
    };
  }
}
