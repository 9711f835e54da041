import { Avatar } from "../../../components/Avatar";
import { Spinner } from "../../../components/Spinner";
import { EmphasisText } from "./EmphasisText";

interface UserMessageProps {
  text: string;
  time: string;
  picture: string;
  delivery: "pending" | "sent" | "failed";
}

/** The user's message on the right: text, hour:minute, picture; pending spinner or 'Failed'. */
export function UserMessage({ text, time, picture, delivery }: UserMessageProps) {
  return (
    <article className="message message--user" aria-label="Your message">
      <div className="bubble bubble--user">
        <p className="bubble__text">
          <EmphasisText text={text} />
        </p>
        <div className="bubble__meta">
          {time && <time>{time}</time>}
          {delivery === "pending" && <Spinner size="small" label="Sending" />}
          {delivery === "failed" && <span className="bubble__failed">Failed</span>}
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
}

/** A character's reply on the left: picture, text and hour:minute (spec 2). */
export function ReplyMessage({ text, time, picture, name }: ReplyMessageProps) {
  return (
    <article className="message message--reply" aria-label={`Reply from ${name}`}>
      <Avatar src={picture} alt="" size={36} />
      <div className="bubble bubble--reply">
        <p className="bubble__text">
          <EmphasisText text={text} />
        </p>
        {time && (
          <div className="bubble__meta">
            <time>{time}</time>
          </div>
        )}
      </div>
    </article>
  );
}
