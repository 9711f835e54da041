let context: AudioContext | null = null;

/**
 * The voice-chat cue (spec 4: it plays 300 ms after listening starts): one short rising tone
 * made with the Web Audio API, so no sound file is downloaded. No audio context: silent
 * (spec 8: not an error).
 */
export function playVoiceCue(): void {
  try {
    if (typeof AudioContext === "undefined") return;
    context ??= new AudioContext();
    const now = context.currentTime;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = "sine";
    oscillator.frequency.setValueAtTime(660, now);
    oscillator.frequency.exponentialRampToValueAtTime(990, now + 0.12);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.12, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.15);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(now);
    oscillator.stop(now + 0.16);
  } catch (error) {
    console.warn("voice cue", error);
  }
}
