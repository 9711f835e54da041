/** spec 9: the reply notice sounds 1000 ms after a reply arrives. */
const REPLY_SOUND_DELAY_MS = 1000;

let context: AudioContext | null = null;

/**
 * spec 4: the notice sound when a reply arrives, 1 s later: a short two-tone chime made with
 * the Web Audio API, so no sound file is downloaded. A browser without an audio context, or
 * one that refuses to play, stays silent (spec 8: not an error).
 */
export function playReplySound(): void {
  window.setTimeout(() => {
    try {
      if (typeof AudioContext === "undefined") return;
      context ??= new AudioContext();
      const now = context.currentTime;
      for (const [index, frequency] of [880, 1320].entries()) {
        const oscillator = context.createOscillator();
        const gain = context.createGain();
        oscillator.type = "sine";
        oscillator.frequency.value = frequency;
        const start = now + index * 0.12;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.25);
        oscillator.connect(gain).connect(context.destination);
        oscillator.start(start);
        oscillator.stop(start + 0.3);
      }
    } catch (error) {
      console.warn("reply sound", error);
    }
  }, REPLY_SOUND_DELAY_MS);
}
