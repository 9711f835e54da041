// Text to speech through any OpenAI-compatible /audio/speech endpoint (OpenAI, Kokoro-FastAPI, openedai-speech, LocalAI).
import { bearer, joinUrl } from "../http";
import { RemoteTts, type RemoteTtsOptions, type SpeechRequest } from "./remote";

/** `baseUrl` up to and including /v1, e.g. http://localhost:8880/v1 (Kokoro-FastAPI); `model` e.g. "tts-1", "kokoro". */
export type OpenAiTtsOptions = RemoteTtsOptions;

/**
 * Any OpenAI-compatible speech endpoint: `POST {base}/audio/speech` with JSON
 * `{ model, input, voice, response_format: "mp3" }`, answering MP3 bytes. Works with
 * OpenAI, Kokoro-FastAPI, openedai-speech and LocalAI.
 */
export class OpenAiTts extends RemoteTts {
  readonly name = "openai";

  protected speechRequest(text: string, voice: string): SpeechRequest {
    return {
      url: joinUrl(this.options.baseUrl, "audio/speech"),
      headers: bearer(this.options.apiKey),
      body: { model: this.options.model, input: text, voice, response_format: "mp3" },
    };
  }
}
