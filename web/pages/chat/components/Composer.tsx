import { type FormEvent, type KeyboardEvent, useCallback, useId, useRef, useState } from "react";
import { MESSAGE_MAX_LENGTH } from "../../../../common/constants";
import type { Capability } from "../../../api/chat";
import { useDismiss } from "../../../hooks/useDismiss";
import { chatTexts } from "../texts";
import { EmojiPicker } from "./EmojiPicker";

interface ComposerProps {
  canSend: boolean;
  /** Sends the text; returns false when nothing was sent (then the text is kept). */
  onSend: (text: string) => boolean;
  /** Chat itself (the model); off disables the box with the reason. */
  chat: Capability | undefined;
  /** Speech input: the microphone is shown disabled with the reason while it is off. */
  speechInput: Capability | undefined;
  /** The message box gained focus (the list then scrolls to the bottom after 300 ms). */
  onFocus?: () => void;
}

/**
 * The chat footer (spec 2, 5): the emoji picker, a 'Type a message' box of at most 150
 * characters with a visible counter, and a Send button when there is text, else the
 * microphone. Enter sends, Shift+Enter adds a line, Escape closes the emoji picker.
 * The request menu (photos) is not offered: its capabilities are off on this server.
 */
export function Composer({ canSend, onSend, chat, speechInput, onFocus }: ComposerProps) {
  const [text, setText] = useState("");
  const [emojiOpen, setEmojiOpen] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const emojiRoot = useRef<HTMLDivElement>(null);
  const counterId = useId();
  const chatOff = chat !== undefined && !chat.enabled;
  const hasText = text.trim() !== "";
  const ready = canSend && hasText && !chatOff;

  const closeEmoji = useCallback(() => setEmojiOpen(false), []);
  useDismiss(emojiRoot, emojiOpen, closeEmoji);

  const submit = () => {
    if (!ready) return;
    if (onSend(text)) setText("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  const insertEmoji = (emoji: string) => {
    const element = input.current;
    const start = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? text.length;
    const next = (text.slice(0, start) + emoji + text.slice(end)).slice(0, MESSAGE_MAX_LENGTH);
    setText(next);
    requestAnimationFrame(() => {
      element?.focus();
      const caret = Math.min(start + emoji.length, next.length);
      element?.setSelectionRange(caret, caret);
    });
  };

  const micOff = speechInput === undefined || !speechInput.enabled;
  return (
    <form className="composer" onSubmit={onSubmit}>
      <div className="composer__emoji" ref={emojiRoot}>
        <button
          type="button"
          className="icon-button"
          aria-label={chatTexts.emoji}
          aria-expanded={emojiOpen}
          aria-haspopup="dialog"
          onClick={() => setEmojiOpen((open) => !open)}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path
              d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm-3.5-9A1.5 1.5 0 1 0 8.5 8a1.5 1.5 0 0 0 0 3zm7 0A1.5 1.5 0 1 0 15.5 8a1.5 1.5 0 0 0 0 3zM12 17.5c2.3 0 4.3-1.5 5.1-3.5H6.9c.8 2 2.8 3.5 5.1 3.5z"
              fill="currentColor"
            />
          </svg>
        </button>
        {emojiOpen && <EmojiPicker onSelect={insertEmoji} />}
      </div>
      <div className="composer__box">
        <textarea
          ref={input}
          className="composer__input"
          placeholder={chatTexts.typeMessage}
          aria-label={chatTexts.typeMessage}
          aria-describedby={counterId}
          maxLength={MESSAGE_MAX_LENGTH}
          rows={1}
          value={text}
          disabled={chatOff}
          title={chatOff ? chat?.reason : undefined}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          onFocus={onFocus}
        />
        <span id={counterId} className="composer__counter" title={chatTexts.characterCount}>
          {text.length}/{MESSAGE_MAX_LENGTH}
        </span>
      </div>
      {hasText ? (
        <button type="submit" className="composer__send" aria-label={chatTexts.send} disabled={!ready}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M3.4 20.4 21 12 3.4 3.6 3.4 10l12.6 2-12.6 2z" fill="currentColor" />
          </svg>
        </button>
      ) : (
        <button
          type="button"
          className="composer__send composer__mic"
          aria-label={chatTexts.microphone}
          aria-description={micOff ? speechInput?.reason : undefined}
          title={micOff ? speechInput?.reason : undefined}
          disabled={micOff}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path
              d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1A7 7 0 0 0 19 11z"
              fill="currentColor"
            />
          </svg>
        </button>
      )}
    </form>
  );
}
