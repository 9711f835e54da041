// Spoken replies, voice previews and transcripts: audio cached by engine, voice and text, spoken sentence by sentence.
import { createHash } from "node:crypto";
import { SentenceStream, speechSentences, uncensorTranscript } from "../../../common/speech";
import type { SentenceAudio } from "../../../common/stream-events";
import type { ChatHistoryRow, User } from "../../db/schema";
import { AppError, badRequest } from "../../errors";
import { msg } from "../../i18n/messages";
import type { FileStorage } from "../../providers/storage/storage";
import type { SpeechAudio, SttProvider } from "../../providers/stt/stt";
import type { TtsProvider, VoiceEntry } from "../../providers/tts/tts";
import type { Conversation } from "../conversation/conversation";
import type { VoiceRepo } from "./voice.repo";

/** A short sample per seeded language for the voice preview (product.md §7 `voice/preview`). */
const PREVIEW_TEXT: Record<string, string> = {
  en: "Hi! This is how I sound. I can't wait to talk with you.",
  es: "¡Hola! Así suena mi voz. Tengo muchas ganas de hablar contigo.",
  fr: "Salut ! Voici ma voix. J'ai hâte de parler avec toi.",
  de: "Hallo! So klingt meine Stimme. Ich freue mich darauf, mit dir zu sprechen.",
  it: "Ciao! Questa è la mia voce. Non vedo l'ora di parlare con te.",
  pt: "Olá! Esta é a minha voz. Mal posso esperar para conversar contigo.",
};

/** Sniffs a recording's container from its bytes (never the client's name or type). */
function sniffAudio(bytes: Buffer): { type: string; ext: string } | undefined {
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString("latin1");
  if (bytes.length < 12) return undefined;
  if (bytes.readUInt32BE(0) === 0x1a45dfa3) return { type: "audio/webm", ext: "webm" };
  if (ascii(0, 4) === "OggS") return { type: "audio/ogg", ext: "ogg" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return { type: "audio/wav", ext: "wav" };
  if (ascii(4, 8) === "ftyp") return { type: "audio/mp4", ext: "m4a" };
  if (ascii(0, 3) === "ID3" || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0))
    return { type: "audio/mpeg", ext: "mp3" };
  if (ascii(0, 4) === "fLaC") return { type: "audio/flac", ext: "flac" };
  return undefined;
}

/**
 * Spoken replies, voice previews and transcripts.
 * - Audio is cached by engine, voice and text: `voice/<sha256>.mp3` under /content/; the same
 *   text in the same voice is never synthesized twice.
 * - A reply is spoken sentence by sentence (narration between asterisks dropped); its whole
 *   audio is the sentences' MP3 frames one after another.
 * - Failures of the engine never fail a chat message: the reply then has no audio (logged).
 */
export class VoiceService {
  /** Syntheses under way, by storage key (two requests for the same audio share one). */
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly tts: TtsProvider,
    private readonly stt: SttProvider,
    private readonly storage: FileStorage,
    private readonly repo: VoiceRepo,
    /** The user's characters (whose voice speaks) and the entries their audio is recorded on. */
    private readonly conversation: Conversation,
    private readonly options: { maxRecordingBytes: number },
    private readonly log: (error: unknown) => void = () => {},
  ) {}

  /** Whether replies can be spoken on this server (capabilities call). */
  get speaks(): boolean {
    return this.tts.name !== "none";
  }

  /** Whether recordings can be transcribed here (capabilities call). */
  get transcribes(): boolean {
    return this.stt.name !== "none";
  }

  /**
   * Audio of `text` in a voice of the seeded list, from the cache or synthesized once.
   * @returns its path under /content/ ("/content/voice/<hash>.mp3").
   * @throws TtsUnavailableError with TTS_PROVIDER=none; AppError 502 when a remote engine fails.
   */
  async speak(voice: VoiceEntry, text: string): Promise<string> {
    const providerVoice = this.tts.voiceFor(voice);
    const key = `voice/${this.hash(providerVoice, text)}.mp3`;
    return this.once(key, async () => {
      const { audio } = await this.tts.synthesize(text, providerVoice);
      await this.storage.put(key, audio);
    });
  }

  /**
   * Audio of several sentences as one file: each sentence from the cache (or synthesized), their
   * MP3 frames joined. @returns "" when there is nothing to say.
   */
  async speakAll(voice: VoiceEntry, sentences: string[]): Promise<string> {
    if (sentences.length === 0) return "";
    if (sentences.length === 1) return this.speak(voice, sentences[0]!);
    const parts = await Promise.all(sentences.map((s) => this.speak(voice, s)));
    const key = `voice/${this.hash(this.tts.voiceFor(voice), sentences.join("\n"))}.mp3`;
    return this.once(key, async () => {
      const bytes = await Promise.all(parts.map((url) => this.storage.read(url.replace(/^\/content\//, ""))));
      await this.storage.put(key, Buffer.concat(bytes.map((b) => b ?? Buffer.alloc(0))));
    });
  }

  /**
   * The voice preview (product.md §4, 7 `voice/preview`): a short sample in the voice's language.
   * @throws AppError 404 for an unknown voice; TtsUnavailableError when voices are off.
   */
  async preview(voiceName: string): Promise<string> {
    const voice = await this.repo.findVoice(voiceName);
    if (!voice) throw new AppError("not_found", msg("voice.unknownVoice"));
    return this.speak(voice, PREVIEW_TEXT[voice.language_code] ?? PREVIEW_TEXT.en!);
  }

  /**
   * Speaks a stored reply and records its audio on the entry (`chatHistoryReplyAudioUrl`).
   * @returns the audio's path, or "" when the reply has nothing to say, voices are off or the
   * engine failed (logged).
   */
  async replyAudio(user: User, entry: ChatHistoryRow | undefined): Promise<string> {
    if (!entry?.reply_message || !this.speaks) return "";
    try {
      const voice = await this.voiceOf(user, entry.character_id);
      if (!voice) return "";
      const url = await this.speakAll(voice, speechSentences(entry.reply_message));
      if (url) await this.conversation.history.updateEntry(entry.id, { reply_audio_url: url });
      entry.reply_audio_url = url;
      return url;
    } catch (error) {
      this.log(error);
      return "";
    }
  }

  /**
   * product.md §4 "Split replies": the audio of each part of a split reply in the voice of the entry's
   * character, so each message is heard in turn. Each part is its sentences (narration dropped)
   * joined as in `speakAll`; the sentences are the cached ones a streamed reply was spoken with,
   * so a part usually costs only the joining of its files.
   * @returns one path per part ("" for a part with nothing to say), or [] when voices are off,
   *   the character has no voice or the engine failed (logged; never throws).
   */
  async partsAudio(user: User, entry: ChatHistoryRow | undefined, parts: string[]): Promise<string[]> {
    if (!entry || parts.length === 0 || !this.speaks) return [];
    try {
      const voice = await this.voiceOf(user, entry.character_id);
      if (!voice) return [];
      return await Promise.all(parts.map((part) => this.speakAll(voice, speechSentences(part))));
    } catch (error) {
      this.log(error);
      return [];
    }
  }

  /**
   * Speaks a reply while it streams: each finished sentence is synthesized at once and handed to
   * `onAudio` in order, so the browser starts playing before the reply is written out.
   * Call `start` with the answering character, `push` with each token, then `finish`.
   */
  replySpeaker(user: User, onAudio: (audio: SentenceAudio) => void) {
    const stream = new SentenceStream();
    let voice: Promise<VoiceEntry | undefined> = Promise.resolve(undefined);
    let entryId = "";
    let index = 0;
    let chain: Promise<void> = Promise.resolve();
    const say = (sentences: string[]) => {
      for (const text of sentences) {
        const at = index++;
        // Started at once (the engine keeps the order); announced in order.
        const url = voice.then((v) => (v ? this.speak(v, text) : ""));
        chain = chain.then(async () => {
          const audioUrl = await url.catch((error: unknown) => {
            this.log(error);
            return "";
          });
          if (audioUrl) onAudio({ chatHistoryUUID: entryId, index: at, text, audioUrl });
        });
      }
    };
    return {
      start: (entry: ChatHistoryRow) => {
        if (!this.speaks) return;
        entryId = entry.id;
        voice = this.voiceOf(user, entry.character_id).catch((error: unknown) => {
          this.log(error);
          return undefined;
        });
      },
      push: (text: string) => {
        if (entryId) say(stream.push(text));
      },
      /** Waits for the sentences under way, then speaks the stored reply as one file. */
      finish: async (entry: ChatHistoryRow | undefined): Promise<string> => {
        if (entryId) say(stream.end());
        await chain;
        return this.replyAudio(user, entry);
      },
    };
  }

  /**
   * Transcribes a recording (POST /api/chat/transcribe) and applies product.md §5's censored-word rule.
   * @throws AppError 413 above the size limit, 400 for bytes that are no known audio container,
   * SttUnavailableError when no endpoint is configured.
   */
  async transcribe(bytes: Buffer, language?: string): Promise<string> {
    if (bytes.length > this.options.maxRecordingBytes) {
      throw new AppError(
        "recording_too_large",
        msg("voice.recordingTooLongMostKb", { n: Math.floor(this.options.maxRecordingBytes / 1024) }),
      );
    }
    const kind = sniffAudio(bytes);
    if (!kind) throw badRequest(msg("voice.audioNotRecordingServerUnderstands"));
    const audio: SpeechAudio = { bytes, type: kind.type, filename: `speech.${kind.ext}` };
    return uncensorTranscript(await this.stt.transcribe(audio, language));
  }

  /** The voice of one of the user's characters, or undefined when it has none. */
  private async voiceOf(user: User, characterId: string): Promise<VoiceEntry | undefined> {
    const character = await this.conversation.chats.findOwnedCharacter(user, characterId);
    if (!character) return undefined;
    return this.repo.findVoice(character.voice);
  }

  private hash(providerVoice: string, text: string): string {
    return createHash("sha256")
      .update(`${this.tts.name}\n${providerVoice}\n${text}`)
      .digest("hex")
      .slice(0, 40);
  }

  /** Makes the file at `key` once (cache on disk, shared while under way). @returns its /content/ path. */
  private once(key: string, make: () => Promise<void>): Promise<string> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const url = `/content/${key}`;
    const job = (async () => {
      if (!(await this.storage.exists(key))) await make();
      return url;
    })().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, job);
    return job;
  }
}
