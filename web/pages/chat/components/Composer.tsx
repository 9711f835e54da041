import { type FormEvent, type KeyboardEvent, useState } from "react";
import { MESSAGE_MAX_LENGTH } from "../../../../common/constants";

interface ComposerProps {
  canSend: boolean;
  /** Sends the text; returns false when nothing was sent (then the text is kept). */
  onSend: (text: string) => boolean;
}

/**
 * The chat footer (spec 2, 5): a 'Type a message' box of at most 150 characters with a
 * counter, and a Send button. Enter sends, Shift+Enter adds a line; blank text is not sent.
 */
export function Composer({ canSend, onSend }: ComposerProps) {
  const [text, setText] = useState("");
  const ready = canSend && text.trim() !== "";

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

  return (
    <form className="composer" onSubmit={onSubmit}>
      <div className="composer__box">
        <textarea
          className="composer__input"
          placeholder="Type a message"
          aria-label="Type a message"
          maxLength={MESSAGE_MAX_LENGTH}
          rows={1}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <span className="composer__counter" aria-hidden="true">
          {text.length}/{MESSAGE_MAX_LENGTH}
        </span>
      </div>
      <button type="submit" className="composer__send" aria-label="Send" disabled={!ready}>
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path d="M3.4 20.4 21 12 3.4 3.6 3.4 10l12.6 2-12.6 2z" fill="currentColor" />
        </svg>
      </button>
    </form>
  );
}
