// The message bubbles (product.md §2): the user's message on the right with its delivery state, a character's reply on the left.
import type { ReactNode } from "react";
import { Avatar } from "../../../components/Avatar";
import { Spinner } from "../../../components/Spinner";
import { useHorizontalSwipe } from "../hooks/useHorizontalSwipe";
import { imageTexts } from "../imageTexts";
import { chatTexts } from "../texts";
import { BubbleImage } from "./BubbleImage";
import { MarkdownText } from "./MarkdownText";
import { ReplyAudio } from "./ReplyAudio";

interface UserMessageProps {
  text: string;
  time: string;
  picture: string;
  delivery: "pending" | "sent" | "failed";
  /** Sends a failed message again (same clientMessageId); absent when it cannot be retried. */
  onRetry?: () => void;
  /** The photo sent with the message, as a URL. */
  image?: string;
  /** the message's action menu, at the end of its meta line. */
  tools?: ReactNode;
  /** the inline editor, shown instead of the text while the message is edited. */
  editor?: ReactNode;
}

/** The user's message on the right: text, hour:minute, picture; pending spinner or 'Failed' + Retry. */
export function UserMessage({
  text,
  time,
  picture,
  delivery,
  onRetry,
  image,
  tools,
  editor,
}: UserMessageProps) {
  return (
    <article className="message message--user" aria-label={chatTexts.yourMessage}>
      <div className="bubble bubble--user">
        {image && <BubbleImage src={image} alt={imageTexts.yourPhoto} />}
        {editor ?? (text && <MarkdownText text={text} />)}
        <div className="bubble__meta">
          {time && <time>{time}</time>}
          {delivery === "pending" && <Spinner size="small" label={chatTexts.sending} />}
          {delivery === "failed" && <span className="bubble__failed">{chatTexts.failed}</span>}
          {delivery === "failed" && onRetry && (
            <button type="button" className="bubble__action" onClick={onRetry}>
              {chatTexts.retry}
            </button>
          )}
          {tools}
        </div>
      </div>
      <Avatar src={picture} alt="" size={36} />
    </article>
  );
}

interface ReplyMessageProps {
  text: string;
  time: string;
  picture: string;
  name: string;
  /** The text is still arriving token by token. */
  streaming?: boolean;
  /** The reply's spoken audio: a play/stop control, or the native one on Apple. */
  audioUrl?: string;
  /** Shown on the newest finished reply: continues it (POST /chat/continue-message). */
  onContinue?: () => void;
  /** The reply's picture as a URL and whether it is still being made. */
  image?: string;
  imageLoading?: boolean;
  /** swipe arrows, Regenerate and the action menu, on the meta line. */
  tools?: ReactNode;
  /** the inline editor, shown instead of the text while the reply is edited. */
  editor?: ReactNode;
  /** a touch swipe on the bubble: -1 the previous reply, 1 the next one. */
  onSwipe?: (direction: -1 | 1) => void;
}

/** A character's reply on the left: picture, name, text and hour:minute (product.md §2). */
export function ReplyMessage({
  text,
  time,
  picture,
  name,
  streaming,
  onContinue,
  image,
  imageLoading,
  audioUrl,
  tools,
  editor,
  onSwipe,
}: ReplyMessageProps) {
  const swipe = useHorizontalSwipe(onSwipe);
  // On a phone a reply with tools takes the row's width (edits.css); a streaming reply takes it from
  // its first token, so that its tools arriving at the end do not wrap the whole reply's text again.
  const wide = Boolean(tools) || streaming === true;
  return (
    <article className="message message--reply" aria-label={chatTexts.replyFrom(name)} aria-busy={streaming}>
      <Avatar src={picture} alt="" size={36} title={name} />
      <div
        className={`bubble bubble--reply${onSwipe ? " bubble--swipeable" : ""}${wide ? " bubble--wide" : ""}`}
        {...swipe}
      >
        <span className="bubble__name">{name}</span>
        {(image || imageLoading) && (
          <BubbleImage src={image ?? ""} loading={imageLoading} alt={imageTexts.picture} />
        )}
        {editor ?? ((text || streaming) && <MarkdownText text={text} streaming={streaming} />)}
        {(time || onContinue || audioUrl || tools) && (
          <div className={tools ? "bubble__meta bubble__meta--tools" : "bubble__meta"}>
            {audioUrl && <ReplyAudio url={audioUrl} name={name} />}
            {time && !streaming && <time>{time}</time>}
            {onContinue && (
              <button type="button" className="bubble__action" onClick={onContinue}>
                {chatTexts.continueReply}
              </button>
            )}
            {tools}
          </div>
        )}
      </div>
    </article>
  );
}
