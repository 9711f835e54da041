// Parts of the chat Settings popup about the chat's history: the 'Recall earlier messages' switch and 'Import a SillyTavern chat'.
import { type RefObject, useId, useRef } from "react";
import { chatTexts } from "../texts";

interface RecallSwitchProps {
  /** Whether the switch shows on (the choice being edited, else the server's setting). */
  on: boolean;
  onChange: (on: boolean) => void;
}

/**
 * 'Recall earlier messages' (saved with the popup's Save, POST /chat/recall), an item of the
 * popup's list: whether the character may look up earlier parts of the chat when replying; the
 * hint under it says so.
 */
export function RecallSwitch({ on, onChange }: RecallSwitchProps) {
  const hintId = useId();
  return (
    <li>
      <label className="chat-switch">
        <input
          type="checkbox"
          role="switch"
          aria-checked={on}
          checked={on}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{chatTexts.recall}</span>
      </label>
      <p className="chat-settings__note" id={hintId}>
        {chatTexts.recallHint}
      </p>
    </li>
  );
}

interface ImportChatSectionProps {
  /** The prefix of the popup's element ids. */
  baseId: string;
  /** A file was chosen, once the popup has closed (the import asks for confirmation before sending it). */
  onFile: (file: File) => void;
  /** The Settings popup, closed when a file is chosen: the confirmation must not sit behind its modal layer. */
  dialog: RefObject<HTMLDialogElement | null>;
}

/**
 * 'Import a SillyTavern chat' (one-to-one chats): a file input for a SillyTavern `.jsonl` chat,
 * with a hint that it replaces the chat's history. Choosing a file closes the popup and hands the
 * file on; the input is emptied, so the same file can be chosen again after a refusal.
 */
export function ImportChatSection({ baseId, onFile, dialog }: ImportChatSectionProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <section className="chat-settings__import" aria-labelledby={`${baseId}-import`}>
      <h3 id={`${baseId}-import`}>{chatTexts.importTitle}</h3>
      <label htmlFor={`${baseId}-import-file`}>{chatTexts.importFile}</label>
      <input
        ref={input}
        id={`${baseId}-import-file`}
        type="file"
        accept=".jsonl,application/jsonl,application/x-ndjson"
        aria-describedby={`${baseId}-import-hint`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (input.current) input.current.value = "";
          if (!file) return;
          dialog.current?.close();
          onFile(file);
        }}
      />
      <p className="chat-settings__note" id={`${baseId}-import-hint`}>
        {chatTexts.importHint}
      </p>
    </section>
  );
}
