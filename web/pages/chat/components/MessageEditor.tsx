// The inline editor of a message or a reply: text box with Save and Cancel, and the refusal's sentence under it.
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Spinner } from "../../../components/Spinner";
import { editTexts } from "../editTexts";

interface MessageEditorProps {
  /** The text as it is now. */
  initial: string;
  /** The box's accessible name ("Edit your message", "Edit the reply"). */
  label: string;
  /** Saves; resolves with the sentence to show when refused, null when saved. */
  onSave: (text: string) => Promise<string | null>;
  onCancel: () => void;
}

/**
 * The inline editor of a message or a reply ("Edit"): a text box with Save and Cancel
 * (Escape cancels); a refusal's sentence shows under the box, which is marked invalid.
 */
export function MessageEditor({ initial, label, onSave, onCancel }: MessageEditorProps) {
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const problemId = useId();
  useEffect(() => {
    box.current?.focus();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const refused = await onSave(text);
    setSaving(false);
    setProblem(refused);
  };

  return (
    <form className="message-editor" onSubmit={(event) => void submit(event)}>
      <textarea
        ref={box}
        className="message-editor__input"
        aria-label={label}
        aria-invalid={problem !== null}
        aria-describedby={problem !== null ? problemId : undefined}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onCancel();
        }}
      />
      {problem !== null && (
        <p id={problemId} className="message-editor__problem" role="alert">
          {problem}
        </p>
      )}
      <div className="message-editor__buttons">
        {saving && <Spinner size="small" label={editTexts.saving} />}
        <button type="button" className="bubble__action" onClick={onCancel}>
          {editTexts.cancel}
        </button>
        <button type="submit" className="bubble__action" disabled={saving}>
          {editTexts.save}
        </button>
      </div>
    </form>
  );
}
