// The audio outputs the Settings popup offers for replies ('Bluetooth').
import { useEffect, useState } from "react";
import { type AudioOutput, audioOutputSupported, listAudioOutputs } from "../../../lib/audioOutput";

/**
 * Whether the browser can choose an audio output (`supported`), the outputs it lists (read once
 * when the popup opens, empty where unsupported) and `add`, which appends an output chosen
 * otherwise (the browser's picker) unless it is listed already.
 */
export function useAudioOutputs() {
  const supported = audioOutputSupported();
  const [outputs, setOutputs] = useState<AudioOutput[]>([]);
  useEffect(() => {
    if (!supported) return;
    let active = true;
    void listAudioOutputs().then((found) => {
      if (active) setOutputs(found);
    });
    return () => {
      active = false;
    };
  }, [supported]);
  const add = (chosen: AudioOutput) =>
    setOutputs((before) =>
      before.some((o) => o.deviceId === chosen.deviceId) ? before : [...before, chosen],
    );
  return { supported, outputs, add };
}
