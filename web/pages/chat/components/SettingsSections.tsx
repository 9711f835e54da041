// Parts of the chat Settings popup: the audio output, the silence duration, 'About you', Memories.
import type { Dispatch, SetStateAction } from "react";
import { RULES } from "../../../../common/validation";
import { Spinner } from "../../../components/Spinner";
import { type ChatSettings, SILENCE_OPTIONS_MS } from "../../../hooks/useChatSettings";
import { type AudioOutput, canPickAudioOutput } from "../../../lib/audioOutput";
import { useChatMemories } from "../hooks/useChatMemories";
import { chatTexts } from "../texts";
import { voiceTexts } from "../voiceTexts";

/** The settings being edited and their setter (saved only on Save). */
interface DraftProps {
  /** The prefix of the popup's element ids. */
  baseId: string;
  draft: ChatSettings;
  setDraft: Dispatch<SetStateAction<ChatSettings>>;
}

/**
 * Under 'Bluetooth': the output replies play on (the system default or one listed), and, where the
 * browser has its own picker, a button that opens it (`onChoose`).
 */
export function AudioOutputPicker({
  baseId,
  draft,
  setDraft,
  outputs,
  onChoose,
}: DraftProps & { outputs: AudioOutput[]; onChoose: () => void }) {
  return (
    <span className="chat-settings__output">
      <label htmlFor={`${baseId}-output`}>{voiceTexts.audioOutput}</label>
      <select
        id={`${baseId}-output`}
        className="chat-settings__select"
        value={draft.audioOutputId}
        onChange={(event) => setDraft({ ...draft, audioOutputId: event.target.value })}
      >
        <option value="">{voiceTexts.systemDefault}</option>
        {outputs.map((output) => (
          <option key={output.deviceId} value={output.deviceId}>
            {output.label}
          </option>
        ))}
      </select>
      {canPickAudioOutput() && (
        <button type="button" className="button button--small button--ghost" onClick={onChoose}>
          {voiceTexts.chooseOutput}
        </button>
      )}
    </span>
  );
}

/** The silence duration that ends speech (product.md §9: 1, 2, 3, 5 or 10 s). */
export function SilenceSelect({ baseId, draft, setDraft }: DraftProps) {
  return (
    <>
      <label htmlFor={`${baseId}-silence`}>{chatTexts.silenceDuration}</label>
      <select
        id={`${baseId}-silence`}
        className="chat-settings__select"
        value={draft.silenceDuration}
        onChange={(event) => setDraft({ ...draft, silenceDuration: Number(event.target.value) })}
      >
        {SILENCE_OPTIONS_MS.map((ms) => (
          <option key={ms} value={ms}>
            {chatTexts.seconds(ms / 1000)}
          </option>
        ))}
      </select>
    </>
  );
}

/** 'About you': the name the user goes by and a few words about themself (sent as `pname`, `ptext`). */
export function SenderFields({ baseId, draft, setDraft }: DraftProps) {
  return (
    <section className="chat-settings__sender" aria-labelledby={`${baseId}-sender`}>
      <h3 id={`${baseId}-sender`}>{chatTexts.aboutYou}</h3>
      <label htmlFor={`${baseId}-sender-name`}>{chatTexts.senderName}</label>
      <input
        id={`${baseId}-sender-name`}
        className="chat-settings__text"
        value={draft.senderName}
        maxLength={RULES.senderName.max}
        placeholder={chatTexts.senderNameHint}
        onChange={(event) => setDraft({ ...draft, senderName: event.target.value })}
      />
      <label htmlFor={`${baseId}-sender-about`}>{chatTexts.senderAbout}</label>
      <textarea
        id={`${baseId}-sender-about`}
        className="chat-settings__text"
        rows={2}
        value={draft.senderAbout}
        maxLength={RULES.senderAbout.max}
        placeholder={chatTexts.senderAboutHint}
        onChange={(event) => setDraft({ ...draft, senderAbout: event.target.value })}
      />
    </section>
  );
}

/** The chat's Memories (the facts the characters keep), each with a Delete. */
export function MemoriesSection({ baseId, chatId }: { baseId: string; chatId: string }) {
  const memories = useChatMemories(chatId, true);
  return (
    <section className="chat-settings__memories" aria-labelledby={`${baseId}-memories`}>
      <h3 id={`${baseId}-memories`}>{chatTexts.memories}</h3>
      {memories.isLoading && <Spinner size="small" label={chatTexts.loadingMemories} />}
      {!memories.isLoading && memories.memories.length === 0 && <p>{chatTexts.noMemories}</p>}
      <ul className="chat-settings__facts">
        {memories.memories.map((memory) => (
          <li key={memory.memoryUUID}>
            <span>
              <strong>{memory.characterName}:</strong> {memory.fact}
            </span>
            <button
              type="button"
              className="button button--small button--danger"
              aria-label={chatTexts.deleteMemory(memory.fact)}
              disabled={memories.removingId === memory.memoryUUID}
              onClick={() => memories.remove(memory.memoryUUID)}
            >
              {chatTexts.delete}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
