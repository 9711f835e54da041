import { useSyncExternalStore } from "react";
import { audioPlayer } from "../../../lib/audioPlayer";

/** The URL the chat's one audio player is playing ("" when silent), re-rendering on change. */
export function useAudioPlayer(): string {
  return useSyncExternalStore(
    (listener) => audioPlayer.subscribe(listener),
    () => audioPlayer.currentUrl,
  );
}
