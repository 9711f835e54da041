// The three ways speech input listens: the app wrapper, the browser's recognition, a recording.
import { transcribeRecording } from "../../../api/voice";
import { listenThroughWrapper } from "../../../lib/mobileBridge";
import { voiceTexts } from "../voiceTexts";

/** What the microphone is doing. */
export type VoiceInputState = "idle" | "starting" | "listening" | "speaking" | "transcribing";

/** The browser's speech recognition (standard or webkit-prefixed), as far as we use it. */
export interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult:
    | ((event: {
        resultIndex: number;
        results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
      }) => void)
    | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

/** The browser's speech recognition class, standard or webkit-prefixed; undefined without one. */
export function recognitionClass(): (new () => Recognition) | undefined {
  const w = window as unknown as {
    SpeechRecognition?: new () => Recognition;
    webkitSpeechRecognition?: new () => Recognition;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

function stopTracks(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** Whether the microphone can be recorded here (getUserMedia and MediaRecorder). */
export const canRecord = () =>
  typeof navigator !== "undefined" &&
  typeof navigator.mediaDevices?.getUserMedia === "function" &&
  typeof MediaRecorder !== "undefined";

/** One listening session as an engine sees it (`useVoiceInput` makes one per start). */
export interface VoiceSession {
  /** Whether this session is still the current one (not cancelled, not replaced). */
  current: () => boolean;
  /** Language of the speech, e.g. "en", as the options say now. */
  language: () => string;
  /** Silence that ends speech, milliseconds, as the options say now. */
  silenceMs: () => number;
  setState: (state: VoiceInputState) => void;
  /** The microphone stream the waveform draws from (null: none). */
  setStream: (stream: MediaStream | null) => void;
  /** Sets what ends this session's resources (tracks, recogniser, VAD, recorder). */
  setCleanup: (cleanup: () => void) => void;
  /** Speech ended with `text` (ignored once the session is not current). */
  finish: (text: string) => void;
  /** The session failed: logged, `message` as a warning toast (ignored once not current). */
  fail: (error: unknown, message: string) => void;
}

/** The sentence for a recogniser's or the wrapper's error code. */
const errorText = (error: string) =>
  error === "not-allowed" ? voiceTexts.micDenied : voiceTexts.speechFailed;

/**
 * The browser's Web Speech API, ended by `silenceMs` without new words (interim words count).
 * The microphone stream it opens only feeds the waveform; the recogniser opens its own.
 */
export async function startBrowser(session: VoiceSession, Engine: new () => Recognition): Promise<void> {
  const mic = await navigator.mediaDevices?.getUserMedia({ audio: true }).catch(() => null);
  if (!session.current()) return stopTracks(mic);
  const recognition = new Engine();
  recognition.lang = session.language();
  recognition.continuous = true;
  recognition.interimResults = true;
  let finalText = "";
  let interim = "";
  let timer = 0;
  const armSilence = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => recognition.stop(), session.silenceMs());
  };
  recognition.onresult = (event) => {
    interim = "";
    for (let i = event.resultIndex; i < event.results.length; i += 1) {
      const result = event.results[i]!;
      if (result.isFinal) finalText += `${result[0]?.transcript ?? ""} `;
      else interim += result[0]?.transcript ?? "";
    }
    session.setState("speaking");
    armSilence();
  };
  recognition.onerror = (event) => {
    if (event.error === "no-speech" || event.error === "aborted") return;
    session.fail(event.error, errorText(event.error));
  };
  recognition.onend = () => session.finish(`${finalText}${interim}`);
  session.setCleanup(() => {
    window.clearTimeout(timer);
    recognition.onend = null;
    recognition.abort();
    for (const track of mic?.getTracks() ?? []) track.stop();
  });
  session.setStream(mic ?? null);
  recognition.start();
  session.setState("listening");
}

/** The mobile app wrapper's own listener (product.md §4): it ends the speech and hands over the transcript. */
export async function startWrapper(session: VoiceSession): Promise<void> {
  const stop = listenThroughWrapper(
    { language: session.language(), silenceMs: session.silenceMs() },
    {
      onListening: () => {
        if (session.current()) session.setState("listening");
      },
      onSpeaking: () => {
        if (session.current()) session.setState("speaking");
      },
      onTranscript: (text) => session.finish(text),
      onError: (error) => session.fail(error, errorText(error)),
    },
  );
  session.setCleanup(stop);
  session.setState("listening");
}

/**
 * A recording (MediaRecorder) sent to POST /chat/transcribe once voice-activity detection (Silero
 * VAD through `@ricky0123/vad-web`, loaded on first use, its model and WebAssembly served by us
 * under /vad/) hears `silenceMs` of silence after speech.
 */
export async function startServer(session: VoiceSession): Promise<void> {
  const mic = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true, channelCount: 1 },
  });
  if (!session.current()) return stopTracks(mic);
  const recorder = new MediaRecorder(mic);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  };
  const { MicVAD } = await import("@ricky0123/vad-web");
  if (!session.current()) return stopTracks(mic);
  let ended = false;
  let released = false;
  // Destroying twice makes onnxruntime complain ("cannot release session").
  const release = () => {
    if (released) return;
    released = true;
    void vad.destroy();
  };
  const vad = await MicVAD.new({
    model: "legacy",
    baseAssetPath: "/vad/",
    onnxWASMBasePath: "/vad/",
    getStream: async () => mic,
    pauseStream: async () => {},
    resumeStream: async () => mic,
    redemptionMs: session.silenceMs(),
    minSpeechMs: 300,
    startOnLoad: false,
    onSpeechStart: () => {
      if (session.current()) session.setState("speaking");
    },
    onSpeechEnd: () => {
      if (ended || !session.current()) return;
      ended = true;
      recorder.onstop = () => {
        session.setState("transcribing");
        const recording = new Blob(chunks, { type: recorder.mimeType || "audio/webm" });
        const language = session.language();
        release();
        transcribeRecording(recording, language).then(
          (text) => session.finish(text),
          (error: unknown) => session.fail(error, voiceTexts.speechFailed),
        );
      };
      recorder.stop();
    },
  });
  const cleanup = () => {
    recorder.onstop = null;
    if (recorder.state !== "inactive") recorder.stop();
    release();
    for (const track of mic.getTracks()) track.stop();
  };
  session.setCleanup(cleanup);
  if (!session.current()) return cleanup();
  recorder.start(250);
  await vad.start();
  session.setStream(mic);
  session.setState("listening");
}
