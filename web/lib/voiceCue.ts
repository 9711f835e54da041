import { playTones } from "./tone";

/**
 * The voice-chat cue (spec 4: it plays 300 ms after listening starts): one short tone rising
 * from 660 Hz to 990 Hz. A browser that cannot play it stays silent (spec 8: not an error).
 */
export function playVoiceCue(): void {
  playTones(
    [{ frequency: 660, endFrequency: 990, glideTo: 0.12, start: 0, peak: 0.12, fade: 0.15, stop: 0.16 }],
    "voice cue",
  );
}
