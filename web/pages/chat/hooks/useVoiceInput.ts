// Speech input (product.md §2, §5): the mobile app's listener, the Web Speech API, or recording sent to POST /chat/transcribe.
import { useCallback, useEffect, useRef, useState } from "react";
import { uncensorTranscript } from "../../../../common/speech";
import type { Capability } from "../../../api/capabilities";
import { mobileBridge } from "../../../lib/mobileBridge";
import { warn } from "../../../lib/notify";
import { voiceTexts } from "../voiceTexts";
import {
  canRecord,
  recognitionClass,
  startBrowser,
  startServer,
  startWrapper,
  type VoiceInputState,
  type VoiceSession,
} from "./voiceEngines";

export type { VoiceInputState };

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
 * Speech input (product.md §2 microphone, product.md §5 censored words), by one of the engines
 * of voiceEngines.ts:
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

  /** The engines' view of session `run` (see `VoiceSession`). */
  const sessionOf = useCallback(
    (run: number): VoiceSession => ({
      current: () => run === session.current,
      language: () => optionsRef.current.language,
      silenceMs: () => optionsRef.current.silenceMs,
      setState,
      setStream,
      setCleanup: (next) => {
        cleanup.current = next;
      },
      finish: (text) => finish(run, text),
      fail: (error, message) => fail(run, error, message),
    }),
    [fail, finish],
  );

  const start = useCallback(() => {
    if (state !== "idle" || engine === "none") return;
    session.current += 1;
    const run = session.current;
    setState("starting");
    const current = sessionOf(run);
    const work =
      engine === "wrapper"
        ? startWrapper(current)
        : engine === "browser" && Recognition
          ? startBrowser(current, Recognition)
          : startServer(current);
    work.catch((error: unknown) => {
      const denied = error instanceof DOMException && error.name === "NotAllowedError";
      fail(run, error, denied ? voiceTexts.micDenied : voiceTexts.speechFailed);
    });
  }, [Recognition, engine, fail, sessionOf, state]);

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
