// The character form's voice preview (product.md §4): play → stop while the sample loads and plays → play again.
import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { previewVoice } from "../../../api/characters";

/** `idle` shows the play image; `loading` and `playing` show the stop image (product.md §4). */
export type VoicePreviewState = "idle" | "loading" | "playing";

export interface VoicePreview {
  state: VoicePreviewState;
  /** Starts the preview of `voiceName`, or stops the running one. */
  toggle: (voiceName: string) => void;
  /** Stops any request or audio and returns to `idle`. */
  stop: () => void;
}

/**
 * The character form's voice preview button (product.md §4): play → stop while GET
 * /characters/voice/preview/?v= runs and while its audio plays → play again when the audio ends.
 * A success 0 (e.g. no text-to-speech engine) shows the server's message as a warning toast
 * through the query client and returns to play. Audio that cannot play is only logged.
 */
export function useVoicePreview(): VoicePreview {
  const [state, setState] = useState<VoicePreviewState>("idle");
  const audio = useRef<HTMLAudioElement | null>(null);
  // Each start gets a number; an answer for an older start (stopped meanwhile) is ignored.
  const run = useRef(0);
  const { mutateAsync } = useMutation({ mutationFn: previewVoice });

  const stop = useCallback(() => {
    run.current += 1;
    if (audio.current !== null) {
      audio.current.onended = null;
      audio.current.onerror = null;
      audio.current.pause();
      audio.current = null;
    }
    setState("idle");
  }, []);

  const start = useCallback(
    async (voiceName: string) => {
      const current = run.current + 1;
      run.current = current;
      setState("loading");
      let audioUrl: string;
      try {
        audioUrl = await mutateAsync(voiceName);
      } catch {
        // Shown (or logged) by the query client's mutation cache.
        if (run.current === current) setState("idle");
        return;
      }
      if (run.current !== current) return;
      const element = new Audio(audioUrl);
      audio.current = element;
      const finish = () => {
        if (run.current !== current) return;
        audio.current = null;
        setState("idle");
      };
      element.onended = finish;
      element.onerror = () => {
        console.error("voice preview: the audio could not be loaded", audioUrl);
        finish();
      };
      setState("playing");
      try {
        await element.play();
      } catch (error) {
        console.error("voice preview: play failed", error);
        finish();
      }
    },
    [mutateAsync],
  );

  const toggle = useCallback(
    (voiceName: string) => {
      if (state === "idle") void start(voiceName);
      else stop();
    },
    [state, start, stop],
  );

  // Leaving the form stops the sample.
  useEffect(() => stop, [stop]);

  return { state, toggle, stop };
}
