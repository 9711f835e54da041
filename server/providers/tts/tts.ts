// Text to speech behind one interface (product.md §3 voices): the seeded voices, the provider, its errors, and none.
import { AppError } from "../../errors";
import { msg } from "../../i18n/messages";

/** A voice of the seeded list (voices table) as the providers see it. */
export interface VoiceEntry {
  /** The provider the entry was written for ("espeak", "openai", "elevenlabs"). */
  provider: string;
  /** That provider's own voice id, e.g. eSpeak's "en+f3". */
  provider_voice: string;
  /** "0" female, "1" male (product.md §3). */
  sex: string;
}

/**
 * Text to speech behind one interface (product.md §3 voices, voice preview, spoken
 * replies). `synthesize` answers compressed audio for a voice of the seeded list.
 */
export interface TtsProvider {
  readonly name: string;
  /**
   * The provider's own voice id for an entry of the voices table: its `provider_voice` when the
   * entry was written for this provider, else this provider's voice of that sex.
   */
  voiceFor(entry: VoiceEntry): string;
  /**
   * @param text plain text to speak (no markup); one sentence or a few.
   * @param voice the provider's own voice id (from `voiceFor`).
   * @returns audio bytes and their file extension ("mp3").
   * @throws TtsUnavailableError when no engine is configured; AppError 502 when a remote engine fails.
   */
  synthesize(text: string, voice: string): Promise<{ audio: Buffer; extension: string }>;
  /** Frees the engine (worker threads, sockets). */
  close(): Promise<void>;
}

/** No text-to-speech engine is configured: voice calls answer success 0 with this message. */
export class TtsUnavailableError extends AppError {
  constructor(message = msg("tts.voicesNotAvailableYetNo")) {
    super("tts_unavailable", message);
  }
}

/** A remote speech engine answered with an error or could not be reached. */
export class TtsFailedError extends AppError {
  constructor(provider: string, detail: string) {
    super("tts_failed", msg("tts.voiceCouldNotMadeRight", { provider, detail }));
  }
}

/** TTS_PROVIDER=none: spoken replies and voice previews are off. */
export class NoTts implements TtsProvider {
  readonly name = "none";
  voiceFor(entry: VoiceEntry): string {
    return entry.provider_voice;
  }
  async synthesize(): Promise<{ audio: Buffer; extension: string }> {
    throw new TtsUnavailableError();
  }
  async close(): Promise<void> {}
}
