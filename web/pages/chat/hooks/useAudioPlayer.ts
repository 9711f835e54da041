// The chat's one audio player as React state: the URL playing, and whether a reply's audio is playing or queued.
import { createContext, useContext, useSyncExternalStore } from "react";
import { audioPlayer } from "../../../lib/audioPlayer";

/** The URL the chat's one audio player is playing ("" when silent), re-rendering on change. */
export function useAudioPlayer(): string {
  return useSyncExternalStore(
    (listener) => audioPlayer.subscribe(listener),
    () => audioPlayer.currentUrl,
  );
}

/**
 * Which reply (chatHistoryUUID) an audio URL of the chat speaks, for the reply buttons:
 * the chat screen provides it from its entries, so a button knows its reply's streamed sentences.
 */
export const ReplyOwnerContext = createContext<(url: string) => string>(() => "");

/**
 * Whether the reply whose audio is `url` is playing or queued, any of its sentences included
 *; re-renders on change. @returns also the reply's owner key for `audioPlayer.toggle`.
 */
export function useReplyPlaying(url: string): { playing: boolean; owner: string } {
  const owner = useContext(ReplyOwnerContext)(url);
  const playing = useSyncExternalStore(
    (listener) => audioPlayer.subscribe(listener),
    () => audioPlayer.isBusy(url, owner),
  );
  return { playing, owner };
}
