// The embedded offline voice: eSpeak NG in WebAssembly with MP3 encoding, run in a worker thread.
import { Worker } from "node:worker_threads";
import type { TtsProvider, VoiceEntry } from "./tts";

/** What the worker answers for one synthesis. */
export interface EspeakResult {
  /** MP3 bytes, or 16-bit little-endian mono PCM when asked for "pcm". */
  audio: Buffer;
  /** Hz (eSpeak NG: 22 050). */
  sampleRate: number;
  /** Number of PCM samples synthesized (before encoding). */
  samples: number;
}

type Pending = { resolve: (r: EspeakResult) => void; reject: (e: Error) => void };

/**
 * The embedded offline engine: eSpeak NG compiled to WebAssembly
 * (`@echogarden/espeak-ng-emscripten`, GPL-3.0, voice data inside the package: nothing is
 * downloaded, no system package) with MP3 encoding by `@breezystack/lamejs` (32 kbit/s mono,
 * about 1/11 of 16-bit PCM WAV). Both run in one worker thread, started on first use, so the
 * event loop never waits for synthesis; requests are served in order.
 *
 * Voices are eSpeak language ids with a variant: "en+f3" (female), "en+m3" (male).
 */
export class EspeakTts implements TtsProvider {
  readonly name = "espeak";
  private worker?: Worker;
  private ready?: Promise<void>;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  voiceFor(entry: VoiceEntry): string {
    if (entry.provider === this.name && entry.provider_voice) return entry.provider_voice;
    return entry.sex === "1" ? "en+m3" : "en+f3";
  }

  async synthesize(text: string, voice: string): Promise<{ audio: Buffer; extension: string }> {
    const result = await this.run(text, voice, "mp3");
    return { audio: result.audio, extension: "mp3" };
  }

  /**
   * Synthesizes in the worker. @param format "pcm" answers the raw samples (tests, benchmark).
   * @throws Error when eSpeak has no such voice.
   */
  async run(text: string, voice: string, format: "mp3" | "pcm"): Promise<EspeakResult> {
    const worker = await this.start();
    const id = this.nextId++;
    return new Promise<EspeakResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, text, voice, format });
    });
  }

  private start(): Promise<Worker> {
    if (!this.ready) {
      const worker = new Worker(new URL("./espeak.worker.mjs", import.meta.url));
      this.worker = worker;
      worker.unref();
      this.ready = new Promise<void>((resolve, reject) => {
        worker.on("message", (message: { ready?: boolean; id?: number; error?: string } & EspeakResult) => {
          if (message.ready) return resolve();
          const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
          if (!waiting || message.id === undefined) return;
          this.pending.delete(message.id);
          if (message.error) waiting.reject(new Error(message.error));
          else
            waiting.resolve({
              audio: Buffer.from(message.audio),
              sampleRate: message.sampleRate,
              samples: message.samples,
            });
        });
        worker.on("error", (error) => {
          reject(error);
          for (const p of this.pending.values()) p.reject(error);
          this.pending.clear();
          this.ready = undefined;
        });
      });
    }
    return this.ready.then(() => this.worker!);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    if (worker) await worker.terminate();
  }
}
