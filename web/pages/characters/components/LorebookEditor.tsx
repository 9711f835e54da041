import { useId } from "react";
import { CountedTextArea } from "../../../components/CountedTextArea";
import { SelectField } from "../../../components/SelectField";
import { TextField } from "../../../components/TextField";
import { LORE_CONTENT_MAX, LORE_ENTRIES_MAX, type LoreDraft, newDraft } from "../lorebookDraft";

const POSITION_OPTIONS = [
  { value: "before_char", label: "Before the character" },
  { value: "after_char", label: "After the character" },
];

interface LorebookEditorProps {
  drafts: LoreDraft[];
  onChange: (drafts: LoreDraft[]) => void;
}

function Check({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  const id = useId();
  return (
    <span className="lorebook__check">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </span>
  );
}

/**
 * The character form's lorebook (issue 17): a simple list editor of entries, each a group named
 * "Entry N" with its keys and secondary keys (comma-separated), content (at most 2000 characters),
 * Enabled, Constant (always inserted), Selective (needs a secondary key too) and the position
 * before or after the character. At most 200 entries, as the server allows.
 */
export function LorebookEditor({ drafts, onChange }: LorebookEditorProps) {
  const update = (key: string, patch: Partial<LoreDraft>) =>
    onChange(drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  return (
    <fieldset className="lorebook">
      <legend>Lorebook</legend>
      <p className="lorebook__hint">
        Facts the character is reminded of when a key word comes up in the chat.
      </p>
      {drafts.map((draft, index) => (
        <fieldset key={draft.key} className="lorebook__entry" aria-label={`Entry ${index + 1}`}>
          <legend>Entry {index + 1}</legend>
          <TextField label="Keys" value={draft.keys} onChange={(keys) => update(draft.key, { keys })} />
          <TextField
            label="Secondary keys"
            value={draft.secondaryKeys}
            onChange={(secondaryKeys) => update(draft.key, { secondaryKeys })}
          />
          <CountedTextArea
            label="Content"
            value={draft.content}
            onChange={(content) => update(draft.key, { content })}
            maxLength={LORE_CONTENT_MAX}
            rows={3}
          />
          <div className="lorebook__checks">
            <Check
              label="Enabled"
              checked={draft.enabled}
              onChange={(enabled) => update(draft.key, { enabled })}
            />
            <Check
              label="Constant"
              checked={draft.constant}
              onChange={(constant) => update(draft.key, { constant })}
            />
            <Check
              label="Selective"
              checked={draft.selective}
              onChange={(selective) => update(draft.key, { selective })}
            />
          </div>
          <SelectField
            label="Position"
            value={draft.position}
            options={POSITION_OPTIONS}
            placeholder="Select a position"
            onChange={(position) =>
              update(draft.key, { position: position === "before_char" ? "before_char" : "after_char" })
            }
          />
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => onChange(drafts.filter((d) => d.key !== draft.key))}
          >
            Remove entry {index + 1}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={drafts.length >= LORE_ENTRIES_MAX}
        onClick={() => onChange([...drafts, newDraft()])}
      >
        Add lorebook entry
      </button>
    </fieldset>
  );
}
