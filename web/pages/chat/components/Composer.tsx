import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from "react";
import { PHOTO_TYPE_PORTRAIT, type PhotoType } from "../../../../common/constants";
import { RULES } from "../../../../common/validation";
import type { Capability } from "../../../api/capabilities";
import { usePopup } from "../../../hooks/usePopup";
import { warn } from "../../../lib/notify";
import { localCheck } from "../../../lib/validationText";
import type { VoiceInputState } from "../hooks/useVoiceInput";
import { imageTexts } from "../imageTexts";
import { chatTexts } from "../texts";
import { voiceTexts } from "../voiceTexts";
import { CameraWindow } from "./CameraWindow";
import { ChatIcon } from "./ChatIcon";
import { EmojiPicker } from "./EmojiPicker";
import { PhotoPreview } from "./PhotoPreview";
import { RecordingWaveform } from "./RecordingWaveform";
import { RequestMenu } from "./RequestMenu";

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
  /** Pictures and photos; absent or both off: no request menu. */
  pictures?: ComposerPictures;
  /** The microphone: listening state, its stream for the waveform, the button's action. */
  voice?: { state: VoiceInputState; active: boolean; stream: MediaStream | null; toggle: () => void };
}

/** What the request menu may do (product.md §2, 6: only when the plan's `il` is '1'). */
export interface ComposerPictures {
  /** Pictures on request (capability imageRequests). */
  requests: boolean;
  /** Why pictures on request are off (e.g. no image engine on this server); "" when on. */
  requestsReason: string;
  /** Attach and Camera (capability photoUpload). */
  photos: boolean;
  onRequest: (message: string, type: PhotoType) => void;
  onSendPhoto: (photo: Blob, text: string) => void;
}

/**
 * The chat footer (product.md §2, 5): the emoji picker, a 'Type a message' box of at most 150
 * characters with a visible counter, and a Send button when there is text, else the
 * microphone. The box keeps the server's rule (common/validation.ts `RULES.chatMessage`);
 * a text that still breaks it is not sent and its sentence ("The message must be at most 150
 * characters.") shows as the warning toast a refusal would show. Enter sends, Shift+Enter adds a line, Escape closes the emoji picker.
 * With image generation enabled, the request menu: Attach, Camera, picture requests;
 * a chosen photo shows above the box with Remove and is sent with the words.
 */
export function Composer({ canSend, onSend, chat, speechInput, onFocus, pictures, voice }: ComposerProps) {
  const [text, setText] = useState("");
  const { open: emojiOpen, setOpen: setEmojiOpen, root: emojiRoot } = usePopup();
  const input = useRef<HTMLTextAreaElement>(null);
  const counterId = useId();
  const chatOff = chat !== undefined && !chat.enabled;
  const hasText = text.trim() !== "";
  // product.md §4: a selected photo forces the send button.
  const [photo, setPhoto] = useState<Blob | null>(null);
  const [cameraOpen, setCameraOpen] = useState(false);
  const ready = canSend && (hasText || photo !== null) && !chatOff;

  const submit = () => {
    if (!ready) return;
    if (photo && pictures) {
      pictures.onSendPhoto(photo, text);
      setPhoto(null);
      setText("");
      return;
    }
    const photoOf = imageTexts.sendPhotoOf.toLowerCase();
    if (
      pictures?.requests &&
      text.trim().toLowerCase().startsWith(photoOf) &&
      text.trim().length > photoOf.length
    ) {
      pictures.onRequest(text.trim(), PHOTO_TYPE_PORTRAIT);
      setText("");
      return;
    }
    const problem = localCheck(RULES.chatMessage, text);
    if (problem) {
      warn(problem);
      return;
    }
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
    const next = (text.slice(0, start) + emoji + text.slice(end)).slice(0, RULES.chatMessage.max);
    setText(next);
    requestAnimationFrame(() => {
      element?.focus();
      const caret = Math.min(start + emoji.length, next.length);
      element?.setSelectionRange(caret, caret);
    });
  };

  const micOff = speechInput === undefined || !speechInput.enabled;
  // a tap on the microphone while it is off shows why, on a visible line (touch devices
  // have no tooltip).
  const [micNote, setMicNote] = useState(false);
  // product.md §4: recording shows the record icon, idle the mic icon.
  const recording = voice !== undefined && (voice.state !== "idle" || voice.active);
  return (
    <>
      {photo && <PhotoPreview photo={photo} onRemove={() => setPhoto(null)} />}
      {cameraOpen && <CameraWindow onCapture={setPhoto} onClose={() => setCameraOpen(false)} />}
      {micOff && micNote && speechInput?.reason && (
        <p className="composer__note" role="status">
          {speechInput.reason}
        </p>
      )}
      <form className="composer" onSubmit={onSubmit}>
        <div className="composer__emoji" ref={emojiRoot}>
          <button
            type="button"
            className="icon-button"
            aria-label={chatTexts.emoji}
            aria-expanded={emojiOpen}
            aria-haspopup="dialog"
            onClick={() => setEmojiOpen(!emojiOpen)}
          >
            <ChatIcon d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm-3.5-9A1.5 1.5 0 1 0 8.5 8a1.5 1.5 0 0 0 0 3zm7 0A1.5 1.5 0 1 0 15.5 8a1.5 1.5 0 0 0 0 3zM12 17.5c2.3 0 4.3-1.5 5.1-3.5H6.9c.8 2 2.8 3.5 5.1 3.5z" />
          </button>
          {emojiOpen && <EmojiPicker onSelect={insertEmoji} />}
        </div>
        {pictures && (
          <RequestMenu
            pictures={pictures.requests}
            picturesReason={pictures.requestsReason}
            photos={pictures.photos}
            disabled={chatOff}
            onAttach={setPhoto}
            onCamera={() => setCameraOpen(true)}
            onRequest={pictures.onRequest}
            onPhotoOf={() => {
              setText(`${imageTexts.sendPhotoOf} `);
              requestAnimationFrame(() => input.current?.focus());
            }}
          />
        )}
        <div className="composer__box">
          <textarea
            ref={input}
            className="composer__input"
            placeholder={chatTexts.typeMessage}
            aria-label={chatTexts.typeMessage}
            aria-describedby={counterId}
            maxLength={RULES.chatMessage.max}
            rows={1}
            value={text}
            disabled={chatOff}
            title={chatOff ? chat?.reason : undefined}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            onFocus={onFocus}
          />
          <span id={counterId} className="composer__counter" title={chatTexts.characterCount}>
            {text.length}/{RULES.chatMessage.max}
          </span>
        </div>
        {voice?.stream && <RecordingWaveform stream={voice.stream} />}
        {voice && voice.state !== "idle" && (
          <span className="composer__voice-state" role="status">
            {voice.state === "transcribing" ? voiceTexts.transcribing : voiceTexts.listening}
          </span>
        )}
        {hasText || photo ? (
          <button type="submit" className="composer__send" aria-label={chatTexts.send} disabled={!ready}>
            <ChatIcon d="M3.4 20.4 21 12 3.4 3.6 3.4 10l12.6 2-12.6 2z" />
          </button>
        ) : (
          <button
            type="button"
            className={
              recording ? "composer__send composer__mic composer__mic--on" : "composer__send composer__mic"
            }
            aria-label={recording ? voiceTexts.stopListening : chatTexts.microphone}
            aria-description={micOff ? speechInput?.reason : undefined}
            aria-pressed={voice ? recording : undefined}
            title={micOff ? speechInput?.reason : undefined}
            aria-disabled={micOff}
            onClick={micOff ? () => setMicNote(!micNote) : voice?.toggle}
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
        )}
      </form>
    </>
  );
}
