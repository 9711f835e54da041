// The prompt inspector's dialog: what a reply's prompt was made of, part by part, against the context window.
import { useNavigate } from "react-router";
import type { LoreFired, PromptInspection, RecalledMessage } from "../../../../common/prompt-inspection";
import { usePromptInspection } from "../../../api/inspector";
import { useModalDialog } from "../hooks/useModalDialog";
import { inspectorTexts } from "../inspectorTexts";
import { recallJump } from "../recallLines";
import { ChatModal } from "./ChatModal";
import { RecallSection } from "./RecallSection";
import "../inspector.css";

/** Why a lorebook entry fired, in words. */
function loreReason(fired: LoreFired): string {
  if (fired.key === undefined) return inspectorTexts.loreConstant;
  const found = inspectorTexts.loreKey(fired.key, fired.messageFromEnd, fired.foundIn);
  return fired.secondaryKey === undefined
    ? found
    : `${found}, ${inspectorTexts.loreSecondary(fired.secondaryKey)}`;
}

/** The parts with their tokens, their total, and the prompt and the reply against the context window. */
function PromptParts({ inspection }: { inspection: PromptInspection }) {
  const { promptTokens, contextWindow, replyTokens } = inspection;
  const share = (tokens: number) => `${Math.min(100, (tokens / Math.max(1, contextWindow)) * 100)}%`;
  return (
    <>
      <table className="prompt-inspector__parts">
        <thead>
          <tr>
            <th scope="col">{inspectorTexts.partColumn}</th>
            <th scope="col" className="prompt-inspector__tokens">
              {inspectorTexts.tokensColumn}
            </th>
          </tr>
        </thead>
        <tbody>
          {inspection.parts.map((part) => (
            <tr key={part.kind} data-part={part.kind}>
              <td>{inspectorTexts.part(part.kind)}</td>
              <td className="prompt-inspector__tokens">{part.tokens}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{inspectorTexts.total}</th>
            <td className="prompt-inspector__tokens" data-total>
              {promptTokens}
            </td>
          </tr>
        </tfoot>
      </table>
      <div className="prompt-inspector__bar" aria-hidden="true">
        <span className="prompt-inspector__bar-prompt" style={{ width: share(promptTokens) }} />
        <span className="prompt-inspector__bar-reply" style={{ width: share(replyTokens) }} />
      </div>
      <p>{inspectorTexts.window(promptTokens, contextWindow, replyTokens)}</p>
      <p>{inspectorTexts.history(inspection.history.kept, inspection.history.exchanges)}</p>
    </>
  );
}

/** The lorebook entries in the prompt and why, then memory's share. */
function LoreAndMemory({ inspection }: { inspection: PromptInspection }) {
  const { memory } = inspection;
  return (
    <>
      <h3>{inspectorTexts.loreTitle}</h3>
      {inspection.lore.length === 0 ? (
        <p>{inspectorTexts.loreNone}</p>
      ) : (
        <ul className="prompt-inspector__lore">
          {inspection.lore.map((fired, index) => (
            // Entries may share a name: the position keeps them apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed while shown.
            <li key={index}>
              <strong>{fired.name}</strong>: {loreReason(fired)}
            </li>
          ))}
        </ul>
      )}
      {inspection.truncated && <p>{inspectorTexts.truncated}</p>}
      <h3>{inspectorTexts.memoryTitle}</h3>
      <p>
        {inspectorTexts.memoryFacts(memory.settledFacts, memory.recentFacts)}.{" "}
        {memory.summaryChars > 0
          ? inspectorTexts.memorySummary(memory.summaryChars)
          : inspectorTexts.memoryNoSummary}
        .
      </p>
    </>
  );
}

/**
 * The "Prompt" dialog of a reply (the message menu's item): the parts of the prompt the reply
 * was written from, in order, with their tokens and total, a bar of the prompt and the reply's
 * reserve against the context window, the lorebook entries fired and why, memory's share, and
 * the earlier messages recall put in the prompt (RecallSection), each with a jump to it: the
 * dialog closes and the chat opens at that message (navigation state `{id, jump}`, the search
 * panel's way, see useMessageJump).
 * @param chatId the chat on screen (a character or group id), where a jump goes.
 * @param index the reply version shown (the entry's chosen swipe).
 */
export function PromptInspector({
  chatId,
  entryId,
  index,
  onClose,
}: {
  chatId: string;
  entryId: string;
  index: number;
  onClose: () => void;
}) {
  const dialog = useModalDialog();
  const query = usePromptInspection(entryId, index);
  const navigate = useNavigate();
  const jump = (message: RecalledMessage) => {
    dialog.current?.close();
    navigate("/chat", { state: { id: chatId, jump: recallJump(message) } });
  };
  return (
    <ChatModal dialog={dialog} className="prompt-inspector" label={inspectorTexts.title} onClose={onClose}>
      <h2>{inspectorTexts.title}</h2>
      {query.isPending ? (
        <p role="status">{inspectorTexts.loading}</p>
      ) : query.isError ? (
        <p role="alert">{inspectorTexts.failed}</p>
      ) : query.data === null ? (
        <p>{inspectorTexts.none}</p>
      ) : (
        <>
          <PromptParts inspection={query.data} />
          <LoreAndMemory inspection={query.data} />
          {query.data.recall && <RecallSection recall={query.data.recall} onJump={jump} />}
        </>
      )}
      <button type="button" className="button" onClick={() => dialog.current?.close()}>
        {inspectorTexts.close}
      </button>
    </ChatModal>
  );
}
