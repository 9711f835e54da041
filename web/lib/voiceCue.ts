// The voice-chat cue (product.md §4, §9): a rising tone 300 ms after listening starts.
import { VOICE_CUE_DELAY_MS } from "../../common/speech";
import { playTones } from "./tone";

/**
 * The voice-chat cue (product.md §4: it plays 300 ms after listening starts): one short tone rising
 * from 660 Hz to 990 Hz. A browser that cannot play it stays silent (product.md §8: not an error).
 */
export function playVoiceCue(): void {
  playTones(
    [{ frequency: 660, endFrequency: 990, glideTo: 0.12, start: 0, peak: 0.12, fade: 0.15, stop: 0.16 }],
    "voice cue",
  );
}

/**
 * Plays the voice-chat cue `VOICE_CUE_DELAY_MS` (300 ms, product.md §4, 9) from now, the moment
 * listening starts. @returns a function that cancels it (listening stopped before the cue).
 */
export function scheduleVoiceCue(): () => void {
  const timer = window.setTimeout(playVoiceCue, VOICE_CUE_DELAY_MS);
  return () => window.clearTimeout(timer);
}
