// The chat footer (product.md §2, §5): emoji picker, message box with 150-character counter, Send or microphone, request menu.
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from "react";
import { PHOTO_TYPE_PORTRAIT, type PhotoType } from "../../../../common/constants";
import { RULES } from "../../../../common/validation";
import type { Capability } from "../../../api/capabilities";
import { warn } from "../../../lib/notify";
import { localCheck } from "../../../lib/validationText";
import { imageTexts } from "../imageTexts";
import { chatTexts } from "../texts";
import { voiceTexts } from "../voiceTexts";
import { CameraWindow } from "./CameraWindow";
import { type ComposerVoice, EmojiMenu, MicButton, SendButton } from "./ComposerButtons";
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
  voice?: ComposerVoice;
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
 * What Send does with the box: sends the chosen photo with the words; requests a portrait when
 * picture requests are on and the text starts with 'Send a photo of' and says more; else sends
 * the message.
 */
function sendKind(text: string, photo: Blob | null, pictures: ComposerPictures | undefined) {
  if (photo && pictures) return "photo";
  const photoOf = imageTexts.sendPhotoOf.toLowerCase();
  const trimmed = text.trim();
  if (pictures?.requests && trimmed.toLowerCase().startsWith(photoOf) && trimmed.length > photoOf.length) {
    return "picture";
  }
  return "message";
}

/**
 * Puts `insert` in place of the selection of the box `element` (at the end without one), cut to
 * the message's maximum, then focuses the box with the caret after it.
 */
function insertAtCaret(
  element: HTMLTextAreaElement | null,
  text: string,
  insert: string,
  setText: (next: string) => void,
): void {
  const start = element?.selectionStart ?? text.length;
  const end = element?.selectionEnd ?? text.length;
  const next = (text.slice(0, start) + insert + text.slice(end)).slice(0, RULES.chatMessage.max);
  setText(next);
  requestAnimationFrame(() => {
    element?.focus();
    const caret = Math.min(start + insert.length, next.length);
    element?.setSelectionRange(caret, caret);
  });
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
    const kind = sendKind(text, photo, pictures);
    if (kind === "photo" && photo && pictures) {
      pictures.onSendPhoto(photo, text);
      setPhoto(null);
      setText("");
    } else if (kind === "picture" && pictures) {
      pictures.onRequest(text.trim(), PHOTO_TYPE_PORTRAIT);
      setText("");
    } else {
      const problem = localCheck(RULES.chatMessage, text);
      if (problem) warn(problem);
      else if (onSend(text)) setText("");
    }
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

  const insertEmoji = (emoji: string) => insertAtCaret(input.current, text, emoji, setText);

  const micOff = speechInput === undefined || !speechInput.enabled;
  // a tap on the microphone while it is off shows why, on a visible line (touch devices
  // have no tooltip).
  const [micNote, setMicNote] = useState(false);
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
        <EmojiMenu onSelect={insertEmoji} />
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
          <SendButton ready={ready} />
        ) : (
          <MicButton
            voice={voice}
            off={micOff}
            offReason={speechInput?.reason}
            onOffTap={() => setMicNote(!micNote)}
          />
        )}
      </form>
    </>
  );
}
