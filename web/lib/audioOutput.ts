// Where the chat's audio plays (Settings 'Bluetooth'): the browser's audio outputs, a likely Bluetooth one, the picker.
/**
 * Choosing where the chat's audio plays (Settings 'Bluetooth'): a Bluetooth headset or
 * speaker is one of the browser's audio outputs, and audio elements are sent to it with
 * `HTMLMediaElement.setSinkId` (see `audioPlayer.setOutput`).
 */

/** One audio output the user can pick. */
export interface AudioOutput {
  /** `MediaDeviceInfo.deviceId`; "" is the system default. */
  deviceId: string;
  label: string;
}

interface OutputDevices {
  enumerateDevices?: () => Promise<MediaDeviceInfo[]>;
  selectAudioOutput?: (options?: { deviceId?: string }) => Promise<MediaDeviceInfo>;
}

const devices = (): OutputDevices | undefined =>
  typeof navigator === "undefined" ? undefined : (navigator.mediaDevices as OutputDevices | undefined);

/**
 * Whether this browser can send audio to a chosen output: it needs `setSinkId` on media
 * elements and a way to find outputs (`enumerateDevices` or `selectAudioOutput`). Without it
 * the 'Bluetooth' setting is hidden (the system decides where audio plays).
 */
export function audioOutputSupported(): boolean {
  if (typeof HTMLMediaElement === "undefined" || !("setSinkId" in HTMLMediaElement.prototype)) return false;
  const media = devices();
  return typeof media?.enumerateDevices === "function" || typeof media?.selectAudioOutput === "function";
}

/** Whether the browser offers its own output picker (`selectAudioOutput`, e.g. Firefox). */
export function canPickAudioOutput(): boolean {
  return typeof devices()?.selectAudioOutput === "function";
}

/**
 * The audio outputs the browser lists (`enumerateDevices`, kind `audiooutput`), without the
 * system's "default" and "communications" aliases; unnamed ones read "Output N".
 * @returns [] when unsupported or refused (logged only).
 */
export async function listAudioOutputs(): Promise<AudioOutput[]> {
  const media = devices();
  if (typeof media?.enumerateDevices !== "function") return [];
  try {
    const all = await media.enumerateDevices();
    return all
      .filter(
        (d) =>
          d.kind === "audiooutput" &&
          d.deviceId &&
          d.deviceId !== "default" &&
          d.deviceId !== "communications",
      )
      .map((d, index) => ({ deviceId: d.deviceId, label: d.label || `Output ${index + 1}` }));
  } catch (error) {
    console.warn("audio outputs", error);
    return [];
  }
}

/** The output that looks like Bluetooth (headset, buds, speaker named so), if any. */
export function likelyBluetooth(outputs: AudioOutput[]): AudioOutput | undefined {
  return outputs.find((o) => /bluetooth|headset|headphone|airpods|buds|hands-free/i.test(o.label));
}

/**
 * Opens the browser's own output picker (`selectAudioOutput`; call it from a tap).
 * @returns the chosen output, or undefined when dismissed or unsupported (logged only).
 */
export async function pickAudioOutput(): Promise<AudioOutput | undefined> {
  const media = devices();
  if (typeof media?.selectAudioOutput !== "function") return undefined;
  try {
    const device = await media.selectAudioOutput();
    return { deviceId: device.deviceId, label: device.label || device.deviceId };
  } catch (error) {
    console.warn("audio output picker", error);
    return undefined;
  }
}
