// The character form's lorebook editor: the list of entries with keys, content, switches and position.
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

/** The entry's switches: their names in `LoreDraft` and their labels' keys in the "characters" catalogue. */
const SWITCHES = [
  ["enabled", "lorebook.enabled"],
  ["constant", "lorebook.constant"],
  ["selective", "lorebook.selective"],
] as const;

/** One entry 'Entry N' (`n`): its fields, its switches, its position and its Remove button. */
function LoreEntry({
  draft,
  n,
  onChange,
  onRemove,
}: {
  draft: LoreDraft;
  n: number;
  onChange: (patch: Partial<LoreDraft>) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation("characters");
  /** A text part's props: its label (`labelKey`), its value and its change. */
  const text = (part: "keys" | "secondaryKeys" | "content", labelKey: string) => ({
    label: t(labelKey),
    value: draft[part],
    onChange: (value: string) => onChange({ [part]: value }),
  });
  return (
    <fieldset className="lorebook__entry" aria-label={t("lorebook.entry", { n })}>
      <legend>{t("lorebook.entry", { n })}</legend>
      <TextField {...text("keys", "lorebook.keys")} />
      <TextField {...text("secondaryKeys", "lorebook.secondaryKeys")} />
      <CountedTextArea {...text("content", "lorebook.content")} maxLength={LORE_CONTENT_MAX} rows={3} />
      <div className="lorebook__checks">
        {SWITCHES.map(([name, labelKey]) => (
          <Check
            key={name}
            label={t(labelKey)}
            checked={draft[name]}
            onChange={(on) => onChange({ [name]: on })}
          />
        ))}
      </div>
      <SelectField
        label={t("lorebook.position")}
        value={draft.position}
        options={POSITION_OPTIONS.map((option) => ({ value: option.value, label: t(option.label) }))}
        placeholder={t("lorebook.selectPosition")}
        onChange={(position) =>
          onChange({ position: position === "before_char" ? "before_char" : "after_char" })
        }
      />
      <button type="button" className="button button--ghost button--small" onClick={onRemove}>
        {t("lorebook.remove", { n })}
      </button>
    </fieldset>
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
  const update = (key: string, patch: Partial<LoreDraft>) =>
    onChange(drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  return (
    <fieldset className="lorebook">
      <legend>{t("lorebook.title")}</legend>
      <p className="lorebook__hint">{t("lorebook.hint")}</p>
      {drafts.map((draft, index) => (
        <LoreEntry
          key={draft.key}
          draft={draft}
          n={index + 1}
          onChange={(patch) => update(draft.key, patch)}
          onRemove={() => onChange(drafts.filter((d) => d.key !== draft.key))}
        />
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
