import { AppError } from "../../http/errors";

/**
 * Text to speech behind one interface (spec 3 voices, issue 4 voice preview, issue 7 spoken
 * replies). `synthesize` answers compressed audio for a voice of the seeded list.
 */
export interface TtsProvider {
  readonly name: string;
  /**
   * @param voice the provider's own voice id (voices.provider_voice).
   * @returns audio bytes and their file extension ("mp3", "ogg").
   * @throws TtsUnavailableError when no engine is configured.
   */
  synthesize(text: string, voice: string): Promise<{ audio: Buffer; extension: string }>;
}

/** No text-to-speech engine is configured: voice calls answer success 0 with this message. */
export class TtsUnavailableError extends AppError {
  constructor(
    message = "Voices are not available yet: no text-to-speech engine is configured on this server.",
  ) {
    super("tts_unavailable", 200, message);
  }
}

/** The provider until a real engine is configured (issue 7 brings one). */
export class NoTts implements TtsProvider {
  readonly name = "none";
  async synthesize(): Promise<{ audio: Buffer; extension: string }> {
    throw new TtsUnavailableError();
  }
}
