import { playTones } from "./tone";

/** spec 9: the reply notice sounds 1000 ms after a reply arrives. */
const REPLY_SOUND_DELAY_MS = 1000;

/**
 * spec 4: the notice sound when a reply arrives, 1 s later: a short two-tone chime (880 Hz then
 * 1320 Hz, 0.12 s apart). A browser that cannot play it stays silent (spec 8: not an error).
 */
export function playReplySound(): void {
  window.setTimeout(() => {
    playTones(
      [880, 1320].map((frequency, index) => ({
        frequency,
        start: index * 0.12,
        peak: 0.15,
        fade: 0.25,
        stop: 0.3,
      })),
      "reply sound",
    );
  }, REPLY_SOUND_DELAY_MS);
}
