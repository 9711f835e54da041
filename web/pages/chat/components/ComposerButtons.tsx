// The chat footer's buttons: the emoji picker's, Send, and the microphone.
import { usePopup } from "../../../hooks/usePopup";
import type { VoiceInputState } from "../hooks/useVoiceInput";
import { chatTexts } from "../texts";
import { voiceTexts } from "../voiceTexts";
import { ChatIcon } from "./ChatIcon";
import { EmojiPicker } from "./EmojiPicker";

/** The emoji button and its picker, which closes on Escape or a press outside it (`usePopup`). */
export function EmojiMenu({ onSelect }: { onSelect: (emoji: string) => void }) {
  const { open, setOpen, root } = usePopup();
  return (
    <div className="composer__emoji" ref={root}>
      <button
        type="button"
        className="icon-button"
        aria-label={chatTexts.emoji}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
      >
        <ChatIcon d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm-3.5-9A1.5 1.5 0 1 0 8.5 8a1.5 1.5 0 0 0 0 3zm7 0A1.5 1.5 0 1 0 15.5 8a1.5 1.5 0 0 0 0 3zM12 17.5c2.3 0 4.3-1.5 5.1-3.5H6.9c.8 2 2.8 3.5 5.1 3.5z" />
      </button>
      {open && <EmojiPicker onSelect={onSelect} />}
    </div>
  );
}

/**
 * The Send button (a submit of the composer's form), off unless the message can go. A press keeps
 * the focus in the message box, as messengers do: a phone's keyboard stays up for the next
 * message, and the box's blur (with its restyle) is not part of the tap's task.
 */
export function SendButton({ ready }: { ready: boolean }) {
  return (
    <button
      type="submit"
      className="composer__send"
      aria-label={chatTexts.send}
      disabled={!ready}
      onMouseDown={(event) => event.preventDefault()}
    >
      <ChatIcon d="M3.4 20.4 21 12 3.4 3.6 3.4 10l12.6 2-12.6 2z" />
    </button>
  );
}

/** The microphone: listening state, its stream for the waveform, the button's action. */
export interface ComposerVoice {
  state: VoiceInputState;
  active: boolean;
  stream: MediaStream | null;
  toggle: () => void;
}

interface MicButtonProps {
  voice: ComposerVoice | undefined;
  /** Why speech input is off; undefined while it is on. */
  offReason: string | undefined;
  /** Speech input is off: a tap toggles the visible note that says why. */
  off: boolean;
  onOffTap: () => void;
}

/**
 * The microphone button (product.md §4): recording shows the record icon, idle the mic icon; while
 * speech input is off it is aria-disabled, says why (description, tooltip) and a tap calls `onOffTap`.
 */
export function MicButton({ voice, offReason, off, onOffTap }: MicButtonProps) {
  const recording = voice !== undefined && (voice.state !== "idle" || voice.active);
  return (
    <button
      type="button"
      className={
        recording ? "composer__send composer__mic composer__mic--on" : "composer__send composer__mic"
      }
      aria-label={recording ? voiceTexts.stopListening : chatTexts.microphone}
      aria-description={off ? offReason : undefined}
      aria-pressed={voice ? recording : undefined}
      title={off ? offReason : undefined}
      aria-disabled={off}
      onClick={off ? onOffTap : voice?.toggle}
    >
      <ChatIcon>
        {recording && <circle cx="12" cy="12" r="7" fill="currentColor" />}
        <path
          visibility={recording ? "hidden" : undefined}
          d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1A7 7 0 0 0 19 11z"
          fill="currentColor"
        />
      </ChatIcon>
    </button>
  );
}
