// Speech to text through any OpenAI-compatible transcription endpoint (OpenAI, whisper.cpp server, faster-whisper-server).
import { AppError } from "../../errors";
import { msg } from "../../i18n/messages";
import { bearer, fetchWithTimeout, joinUrl, type ModelEndpointOptions, ProviderHttpError } from "../http";
import type { SpeechAudio, SttProvider } from "./stt";

/**
 * `baseUrl` up to and including /v1, e.g. http://localhost:8000/v1 (faster-whisper-server);
 * `model` e.g. "whisper-1", "Systran/faster-whisper-small".
 */
export interface OpenAiSttOptions extends ModelEndpointOptions {
  /** Milliseconds before one transcription request is given up (STT_TIMEOUT_MS). */
  timeoutMs: number;
}

/**
 * Any OpenAI-compatible transcription endpoint: `POST {base}/audio/transcriptions`,
 * multipart with `file` and `model` (and `language` when known), answering JSON `{ text }`.
 * Works with OpenAI, whisper.cpp's server (its /v1 route) and faster-whisper-server.
 */
export class OpenAiStt implements SttProvider {
  readonly name = "openai";
  constructor(private readonly options: OpenAiSttOptions) {}

  async transcribe(audio: SpeechAudio, language?: string): Promise<string> {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(audio.bytes)], { type: audio.type }), audio.filename);
    form.append("model", this.options.model);
    form.append("response_format", "json");
    if (language) form.append("language", language);
    let response: Response;
    try {
      response = await fetchWithTimeout(joinUrl(this.options.baseUrl, "audio/transcriptions"), {
        method: "POST",
        headers: bearer(this.options.apiKey),
        body: form,
        timeoutMs: this.options.timeoutMs,
      });
    } catch (error) {
      const cause = error instanceof ProviderHttpError ? error.cause : error;
      throw new AppError("stt_failed", msg("stt.speechCouldNotTranscribedRight", { String: String(cause) }));
    }
    if (!response.ok) {
      throw new AppError("stt_failed", msg("stt.speechCouldNotTranscribedHttp", { status: response.status }));
    }
    const body = (await response.json()) as { text?: unknown };
    if (typeof body.text !== "string")
      throw new AppError("stt_failed", msg("stt.transcriptionAnswerHadNoText"));
    return body.text.trim();
  }
}
