// Short synthesized tones with the Web Audio API, so the chat's sounds need no sound file.
let context: AudioContext | null = null;

/** One short sine tone, in seconds from the moment `playTones` is called. */
export interface Tone {
  /** Hz at the start. */
  frequency: number;
  /** Hz reached at `glideTo` seconds after the start (a rising or falling tone), if it glides. */
  endFrequency?: number;
  glideTo?: number;
  /** Seconds after the call the tone starts. */
  start: number;
  /** Loudest gain (0..1), reached 0.02 s after the start. */
  peak: number;
  /** Seconds after the start the tone has faded out, and when it stops. */
  fade: number;
  stop: number;
}

/**
 * Plays `tones` with the Web Audio API (one shared audio context), so no sound file is
 * downloaded. A browser without an audio context, or one that refuses to play, stays silent
 * (product.md §8: not an error; the failure is logged under `label`).
 */
export function playTones(tones: Tone[], label: string): void {
  try {
    if (typeof AudioContext === "undefined") return;
    context ??= new AudioContext();
    const now = context.currentTime;
    for (const tone of tones) {
      const start = now + tone.start;
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = "sine";
      oscillator.frequency.setValueAtTime(tone.frequency, start);
      if (tone.endFrequency !== undefined && tone.glideTo !== undefined) {
        oscillator.frequency.exponentialRampToValueAtTime(tone.endFrequency, start + tone.glideTo);
      }
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(tone.peak, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + tone.fade);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start);
      oscillator.stop(start + tone.stop);
    }
  } catch (error) {
    console.warn(label, error);
  }
}
