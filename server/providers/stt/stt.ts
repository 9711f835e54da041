// Speech to text behind one interface: recorded audio, the provider, and none when no endpoint is configured.
import { AppError } from "../../errors";
import { msg } from "../../i18n/messages";

/** Audio recorded in the browser (MediaRecorder: webm/opus, ogg, mp4) or any file to transcribe. */
export interface SpeechAudio {
  bytes: Buffer;
  /** MIME type, e.g. "audio/webm". */
  type: string;
  /** A file name with a fitting extension; endpoints guess the format from it. */
  filename: string;
}

/**
 * Speech to text behind one interface (the server-side path used when the browser has
 * no Web Speech API, or by choice in Settings).
 */
export interface SttProvider {
  readonly name: string;
  /**
   * @returns the transcript (may be empty when nothing was said).
   * @throws SttUnavailableError when none is configured; AppError 502 when the endpoint fails.
   */
  transcribe(audio: SpeechAudio, language?: string): Promise<string>;
}

/** No transcription endpoint is configured. */
export class SttUnavailableError extends AppError {
  constructor() {
    super("stt_unavailable", msg("stt.speechInputThroughServerNot"));
  }
}

/** STT_BASE_URL is empty: the browser's own speech recognition is the only way to speak. */
export class NoStt implements SttProvider {
  readonly name = "none";
  async transcribe(): Promise<string> {
    throw new SttUnavailableError();
  }
}
