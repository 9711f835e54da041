// A reply's play/stop button on the chat's one audio player (product.md §2, §4), native audio control on Apple devices.
import { audioPlayer } from "../../../lib/audioPlayer";
import { isAppleDevice } from "../../../lib/device";
import { useReplyPlaying } from "../hooks/useAudioPlayer";
import { voiceTexts } from "../voiceTexts";

/**
 * A reply's audio (product.md §2): a play/stop icon that uses the chat's one player (only one reply
 * plays at a time; selecting the one playing stops it, product.md §4); on Apple devices the native
 * audio control. While a streamed reply plays sentence by sentence (or waits in the queue) its
 * button shows Stop, and Stop ends the whole queue.
 */
export function ReplyAudio({ url, name }: { url: string; name: string }) {
  const { playing, owner } = useReplyPlaying(url);
  if (isAppleDevice()) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: a spoken reply's text is shown right above it.
      <audio
        className="bubble__audio"
        controls
        preload="none"
        src={url}
        aria-label={voiceTexts.replyAudio(name)}
      />
    );
  }
  return (
    <button
      type="button"
      className="bubble__action bubble__play"
      aria-label={playing ? voiceTexts.stopReply(name) : voiceTexts.playReply(name)}
      aria-pressed={playing}
      data-audio-url={url}
      onClick={() => audioPlayer.toggle(url, owner)}
    >
      <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
        {playing ? (
          <path d="M6 6h12v12H6z" fill="currentColor" />
        ) : (
          <path d="M8 5v14l11-7z" fill="currentColor" />
        )}
      </svg>
    </button>
  );
}
