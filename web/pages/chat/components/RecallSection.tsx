// The prompt inspector's "Recalled from earlier": recall's query, budget and the earlier messages it put in the prompt.
import { useId } from "react";
import type { RecalledMessage, RecallInspection } from "../../../../common/prompt-inspection";
import { formatDate } from "../../../i18n";
import { inspectorTexts } from "../inspectorTexts";
import { recallReason, recallTokens } from "../recallLines";

interface RecallSectionProps {
  recall: RecallInspection;
  /** "Jump to it" was pressed on `message`: open the chat at it. */
  onJump: (message: RecalledMessage) => void;
}

/**
 * "Recalled from earlier" (a section headed h3): one line when recall is off for the chat;
 * otherwise the words searched for, the tokens the recalled messages take of recall's budget (and
 * the search's milliseconds), and the messages in prompt order (oldest first), each under a
 * heading of speaker and short date, its text clamped to three lines, why it was picked and a
 * "Jump to it" button (described by the heading, so a screen reader hears which message).
 */
export function RecallSection({ recall, onJump }: RecallSectionProps) {
  const titleId = useId();
  return (
    <section className="prompt-inspector__recall" aria-labelledby={titleId}>
      <h3 id={titleId}>{inspectorTexts.recallTitle}</h3>
      {!recall.enabled ? (
        <p>{inspectorTexts.recallOff}</p>
      ) : (
        <>
          <p>
            {recall.query.length > 0
              ? inspectorTexts.recallQuery(recall.query.join(", "))
              : inspectorTexts.recallNoQuery}
          </p>
          <p>{inspectorTexts.recallBudget(recallTokens(recall), recall.budget, recall.ms)}</p>
          {recall.messages.length === 0 ? (
            <p>{inspectorTexts.recallNone}</p>
          ) : (
            <ul className="prompt-inspector__recalled" aria-labelledby={titleId}>
              {recall.messages.map((message) => (
                <RecalledItem key={`${message.entryId}:${message.side}`} message={message} onJump={onJump} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** One recalled message: speaker and date as its heading, the clamped text, why, and its jump. */
function RecalledItem({
  message,
  onJump,
}: {
  message: RecalledMessage;
  onJump: (message: RecalledMessage) => void;
}) {
  const headingId = useId();
  return (
    <li className="recalled-message" data-why={message.why}>
      <h4 id={headingId} className="recalled-message__head">
        {message.speaker} ·{" "}
        <time dateTime={new Date(message.time).toISOString()}>
          {formatDate(message.time, { dateStyle: "short" })}
        </time>
      </h4>
      <p className="recalled-message__text">{message.text}</p>
      <div className="recalled-message__foot">
        <span className="recalled-message__why">{recallReason(message)}</span>
        <button
          type="button"
          className="button button--small button--ghost"
          aria-describedby={headingId}
          onClick={() => onJump(message)}
        >
          {inspectorTexts.recallJump}
        </button>
      </div>
    </li>
  );
}
