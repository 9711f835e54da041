import { useId } from "react";
import { useTranslation } from "react-i18next";
import { CountedTextArea } from "../../../components/CountedTextArea";
import { SelectField } from "../../../components/SelectField";
import { TextField } from "../../../components/TextField";
import { LORE_CONTENT_MAX, LORE_ENTRIES_MAX, type LoreDraft, newDraft } from "../lorebookDraft";

/** The positions and their labels' keys in the "characters" catalogue. */
const POSITION_OPTIONS = [
  { value: "before_char", label: "lorebook.before" },
  { value: "after_char", label: "lorebook.after" },
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
 * The character form's lorebook: a simple list editor of entries, each a group named
 * "Entry N" with its keys and secondary keys (comma-separated), content (at most 2000 characters),
 * Enabled, Constant (always inserted), Selective (needs a secondary key too) and the position
 * before or after the character. At most 200 entries, as the server allows.
 */
export function LorebookEditor({ drafts, onChange }: LorebookEditorProps) {
  const { t } = useTranslation("characters");
  const positions = POSITION_OPTIONS.map((option) => ({ value: option.value, label: t(option.label) }));
  const update = (key: string, patch: Partial<LoreDraft>) =>
    onChange(drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  return (
    <fieldset className="lorebook">
      <legend>{t("lorebook.title")}</legend>
      <p className="lorebook__hint">{t("lorebook.hint")}</p>
      {drafts.map((draft, index) => (
        <fieldset
          key={draft.key}
          className="lorebook__entry"
          aria-label={t("lorebook.entry", { n: index + 1 })}
        >
          <legend>{t("lorebook.entry", { n: index + 1 })}</legend>
          <TextField
            label={t("lorebook.keys")}
            value={draft.keys}
            onChange={(keys) => update(draft.key, { keys })}
          />
          <TextField
            label={t("lorebook.secondaryKeys")}
            value={draft.secondaryKeys}
            onChange={(secondaryKeys) => update(draft.key, { secondaryKeys })}
          />
          <CountedTextArea
            label={t("lorebook.content")}
            value={draft.content}
            onChange={(content) => update(draft.key, { content })}
            maxLength={LORE_CONTENT_MAX}
            rows={3}
          />
          <div className="lorebook__checks">
            <Check
              label={t("lorebook.enabled")}
              checked={draft.enabled}
              onChange={(enabled) => update(draft.key, { enabled })}
            />
            <Check
              label={t("lorebook.constant")}
              checked={draft.constant}
              onChange={(constant) => update(draft.key, { constant })}
            />
            <Check
              label={t("lorebook.selective")}
              checked={draft.selective}
              onChange={(selective) => update(draft.key, { selective })}
            />
          </div>
          <SelectField
            label={t("lorebook.position")}
            value={draft.position}
            options={positions}
            placeholder={t("lorebook.selectPosition")}
            onChange={(position) =>
              update(draft.key, { position: position === "before_char" ? "before_char" : "after_char" })
            }
          />
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => onChange(drafts.filter((d) => d.key !== draft.key))}
          >
            {t("lorebook.remove", { n: index + 1 })}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={drafts.length >= LORE_ENTRIES_MAX}
        onClick={() => onChange([...drafts, newDraft()])}
      >
        {t("lorebook.add")}
      </button>
    </fieldset>
  );
}
