import { useCallback, useEffect, useRef, useState } from "react";
import { uncensorTranscript } from "../../../../common/speech";
import type { Capability } from "../../../api/capabilities";
import { transcribeRecording } from "../../../api/voice";
import { listenThroughWrapper, mobileBridge } from "../../../lib/mobileBridge";
import { warn } from "../../../lib/notify";
import { voiceTexts } from "../voiceTexts";

/** What the microphone is doing. */
export type VoiceInputState = "idle" | "starting" | "listening" | "speaking" | "transcribing";

/** The browser's speech recognition (standard or webkit-prefixed), as far as we use it. */
interface Recognition {
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

function recognitionClass(): (new () => Recognition) | undefined {
  const w = window as unknown as {
    SpeechRecognition?: new () => Recognition;
    webkitSpeechRecognition?: new () => Recognition;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

function stopTracks(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

const canRecord = () =>
  typeof navigator !== "undefined" &&
  typeof navigator.mediaDevices?.getUserMedia === "function" &&
  typeof MediaRecorder !== "undefined";

export interface VoiceInputOptions {
  /** The server's transcription path (capabilities `speechInput`). */
  server: Capability | undefined;
  /** Settings: record and transcribe on the server even where the browser recognises speech. */
  preferServer: boolean;
  /** product.md §9: silence that ends speech, milliseconds (1000 to 10000). */
  silenceMs: number;
  /** Language of the speech, e.g. "en" (the character's language). */
  language: string;
  /** The transcript when speech ended ("" when nothing was understood). */
  onResult: (text: string) => void;
}

export interface VoiceInput {
  /** Whether the microphone can be used here, with the reason when not. */
  available: Capability;
  /**
   * Which path is used: the mobile app wrapper's listener (product.md §4, web/lib/mobileBridge.ts), the
   * browser's recognition, or a recording sent to the server.
   */
  engine: "wrapper" | "browser" | "server" | "none";
  state: VoiceInputState;
  /** The microphone stream while listening (the waveform draws from it). */
  stream: MediaStream | null;
  start: () => void;
  /** Stops listening without a result. */
  cancel: () => void;
}

/**
 * Speech input (product.md §2 microphone, product.md §5 censored words):
 * - inside the mobile app wrapper, its own listener through `window.CompanionBridge` (product.md §4;
 *   the wrapper ends the speech and hands over the transcript);
 * - the browser's Web Speech API where it exists, ended by `silenceMs` without new words;
 * - otherwise, or by choice in Settings, the microphone is recorded (MediaRecorder) and sent to
 *   POST /chat/transcribe once voice-activity detection (Silero VAD through `@ricky0123/vad-web`,
 *   loaded on first use, its model and WebAssembly served by us under /vad/) hears `silenceMs`
 *   of silence after speech;
 * - with neither, `available` says why and nothing starts.
 */
export function useVoiceInput(options: VoiceInputOptions): VoiceInput {
  const [state, setState] = useState<VoiceInputState>("idle");
  const [stream, setStream] = useState<MediaStream | null>(null);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  /** Ends the current session's resources (tracks, recogniser, VAD, recorder). */
  const cleanup = useRef<() => void>(() => {});
  const session = useRef(0);

  const Recognition = typeof window === "undefined" ? undefined : recognitionClass();
  const serverOn = options.server?.enabled === true && canRecord();
  const wrapper = typeof window !== "undefined" && mobileBridge() !== undefined;
  const engine: VoiceInput["engine"] = wrapper
    ? "wrapper"
    : Recognition && !(options.preferServer && serverOn)
      ? "browser"
      : serverOn
        ? "server"
        : "none";
  const available: Capability =
    engine !== "none"
      ? { enabled: true, reason: "" }
      : {
          enabled: false,
          reason: !canRecord() && !Recognition ? voiceTexts.noMicrophone : voiceTexts.noSpeechAnywhere,
        };

  const finish = useCallback((run: number, text: string) => {
    if (run !== session.current) return;
    cleanup.current();
    cleanup.current = () => {};
    setStream(null);
    setState("idle");
    optionsRef.current.onResult(uncensorTranscript(text.trim()));
  }, []);

  const fail = useCallback((run: number, error: unknown, message: string) => {
    if (run !== session.current) return;
    console.error("speech input", error);
    cleanup.current();
    cleanup.current = () => {};
    setStream(null);
    setState("idle");
    warn(message);
  }, []);

  const startBrowser = useCallback(
    async (run: number, Engine: new () => Recognition) => {
      // The microphone stream only feeds the waveform; the recogniser opens its own.
      const mic = await navigator.mediaDevices?.getUserMedia({ audio: true }).catch(() => null);
      if (run !== session.current) return stopTracks(mic);
      const recognition = new Engine();
      recognition.lang = optionsRef.current.language;
      recognition.continuous = true;
      recognition.interimResults = true;
      let finalText = "";
      let interim = "";
      let timer = 0;
      const armSilence = () => {
        window.clearTimeout(timer);
        timer = window.setTimeout(() => recognition.stop(), optionsRef.current.silenceMs);
      };
      recognition.onresult = (event) => {
        interim = "";
        for (let i = event.resultIndex; i < event.results.length; i += 1) {
          const result = event.results[i]!;
          if (result.isFinal) finalText += `${result[0]?.transcript ?? ""} `;
          else interim += result[0]?.transcript ?? "";
        }
        setState("speaking");
        armSilence();
      };
      recognition.onerror = (event) => {
        if (event.error === "no-speech" || event.error === "aborted") return;
        fail(
          run,
          event.error,
          event.error === "not-allowed" ? voiceTexts.micDenied : voiceTexts.speechFailed,
        );
      };
      recognition.onend = () => finish(run, `${finalText}${interim}`);
      cleanup.current = () => {
        window.clearTimeout(timer);
        recognition.onend = null;
        recognition.abort();
        for (const track of mic?.getTracks() ?? []) track.stop();
      };
      setStream(mic ?? null);
      recognition.start();
      setState("listening");
    },
    [fail, finish],
  );

  const startWrapper = useCallback(
    async (run: number) => {
      const stop = listenThroughWrapper(
        { language: optionsRef.current.language, silenceMs: optionsRef.current.silenceMs },
        {
          onListening: () => {
            if (run === session.current) setState("listening");
          },
          onSpeaking: () => {
            if (run === session.current) setState("speaking");
          },
          onTranscript: (text) => finish(run, text),
          onError: (error) =>
            fail(run, error, error === "not-allowed" ? voiceTexts.micDenied : voiceTexts.speechFailed),
        },
      );
      cleanup.current = stop;
      setState("listening");
    },
    [fail, finish],
  );

  const startServer = useCallback(
    async (run: number) => {
      const mic = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true, channelCount: 1 },
      });
      if (run !== session.current) return stopTracks(mic);
      const recorder = new MediaRecorder(mic);
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => {
        if (event.data.size > 0) chunks.push(event.data);
      };
      const { MicVAD } = await import("@ricky0123/vad-web");
      if (run !== session.current) return stopTracks(mic);
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
        redemptionMs: optionsRef.current.silenceMs,
        minSpeechMs: 300,
        startOnLoad: false,
        onSpeechStart: () => {
          if (run === session.current) setState("speaking");
        },
        onSpeechEnd: () => {
          if (ended || run !== session.current) return;
          ended = true;
          recorder.onstop = () => {
            setState("transcribing");
            const recording = new Blob(chunks, { type: recorder.mimeType || "audio/webm" });
            const language = optionsRef.current.language;
            release();
            transcribeRecording(recording, language).then(
              (text) => finish(run, text),
              (error: unknown) => fail(run, error, voiceTexts.speechFailed),
            );
          };
          recorder.stop();
        },
      });
      cleanup.current = () => {
        recorder.onstop = null;
        if (recorder.state !== "inactive") recorder.stop();
        release();
        for (const track of mic.getTracks()) track.stop();
      };
      if (run !== session.current) return cleanup.current();
      recorder.start(250);
      await vad.start();
      setStream(mic);
      setState("listening");
    },
    [fail, finish],
  );

  const start = useCallback(() => {
    if (state !== "idle" || engine === "none") return;
    session.current += 1;
    const run = session.current;
    setState("starting");
    const work =
      engine === "wrapper"
        ? startWrapper(run)
        : engine === "browser" && Recognition
          ? startBrowser(run, Recognition)
          : startServer(run);
    work.catch((error: unknown) => {
      const denied = error instanceof DOMException && error.name === "NotAllowedError";
      fail(run, error, denied ? voiceTexts.micDenied : voiceTexts.speechFailed);
    });
  }, [Recognition, engine, fail, startBrowser, startServer, startWrapper, state]);

  const cancel = useCallback(() => {
    session.current += 1;
    cleanup.current();
    cleanup.current = () => {};
    setStream(null);
    setState("idle");
  }, []);

  useEffect(
    () => () => {
      session.current += 1;
      cleanup.current();
    },
    [],
  );

  // product.md §8: "Speech recognition unsupported: console warning only".
  const hasRecognition = Recognition !== undefined;
  useEffect(() => {
    if (!hasRecognition && !wrapper) console.warn("speech input: this browser has no speech recognition");
  }, [hasRecognition, wrapper]);

  return { available, engine, state, stream, start, cancel };
}
