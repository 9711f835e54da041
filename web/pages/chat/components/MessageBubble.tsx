import { Avatar } from "../../../components/Avatar";
import { Spinner } from "../../../components/Spinner";
import { chatTexts } from "../texts";
import { EmphasisText } from "./EmphasisText";

interface UserMessageProps {
  text: string;
  time: string;
  picture: string;
  delivery: "pending" | "sent" | "failed";
  /** Sends a failed message again (same clientMessageId); absent when it cannot be retried. */
  onRetry?: () => void;
}

/** The user's message on the right: text, hour:minute, picture; pending spinner or 'Failed' + Retry. */
export function UserMessage({ text, time, picture, delivery, onRetry }: UserMessageProps) {
  return (
    <article className="message message--user" aria-label={chatTexts.yourMessage}>
      <div className="bubble bubble--user">
        <p className="bubble__text">
          <EmphasisText text={text} />
        </p>
        <div className="bubble__meta">
          {time && <time>{time}</time>}
          {delivery === "pending" && <Spinner size="small" label={chatTexts.sending} />}
          {delivery === "failed" && <span className="bubble__failed">{chatTexts.failed}</span>}
          {delivery === "failed" && onRetry && (
            <button type="button" className="bubble__action" onClick={onRetry}>
              {chatTexts.retry}
            </button>
          )}
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
  /** Shown on the newest finished reply: continues it (POST /chat/continue-message). */
  onContinue?: () => void;
}

/** A character's reply on the left: picture, name, text and hour:minute (spec 2). */
export function ReplyMessage({ text, time, picture, name, streaming, onContinue }: ReplyMessageProps) {
  return (
    <article className="message message--reply" aria-label={chatTexts.replyFrom(name)} aria-busy={streaming}>
      <Avatar src={picture} alt="" size={36} title={name} />
      <div className="bubble bubble--reply">
        <span className="bubble__name">{name}</span>
        <p className="bubble__text">
          <EmphasisText text={text} />
          {streaming && <span className="bubble__cursor" aria-hidden="true" />}
        </p>
        {(time || onContinue) && (
          <div className="bubble__meta">
            {time && !streaming && <time>{time}</time>}
            {onContinue && (
              <button type="button" className="bubble__action" onClick={onContinue}>
                {chatTexts.continueReply}
              </button>
            )}
          </div>
        )}
      </div>
    </article>
  );
}
