// The character form's collapsible Generation section: reply length, temperature, author's note and its depth.
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import * as limits from "../../../../common/generation";
import type { GenerationFields } from "../../../api/characters";
import { CountedTextArea } from "../../../components/CountedTextArea";
import { hasGeneration } from "../generationDraft";

/** The section's number fields: their bounds (common/generation.ts) and the step of their arrows. */
const NUMBER_FIELDS = {
  maxTokens: { min: limits.MAX_TOKENS_MIN, max: limits.MAX_TOKENS_MAX, step: 1 },
  temperature: { min: limits.TEMPERATURE_MIN, max: limits.TEMPERATURE_MAX, step: 0.05 },
  authorsNoteDepth: { min: 0, max: limits.AUTHORS_NOTE_DEPTH_MAX, step: 1 },
} as const;

/** A labelled number input with a line of help under it (blank allowed: the default). */
function NumberInput({
  label,
  help,
  value,
  onChange,
  min,
  max,
  step,
}: {
  label: string;
  help: string;
  value: string;
  onChange: (value: string) => void;
  min: number;
  max: number;
  step: number;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-help`}
      />
      <small id={`${id}-help`} className="generation__help">
        {help}
      </small>
    </div>
  );
}

/**
 * The Generation section of the character form (product.md §2 "Character form"): the character's
 * own reply length (tokens), temperature, author's note and the note's depth, each blank for the
 * model connection's default. Closed at first unless something is set.
 */
export function GenerationSection({
  fields,
  onChange,
}: {
  fields: GenerationFields;
  onChange: (fields: GenerationFields) => void;
}) {
  const { t } = useTranslation("characters");
  const [open] = useState(() => hasGeneration(fields));
  const set = (name: keyof GenerationFields) => (value: string) => onChange({ ...fields, [name]: value });
  const number = (field: keyof typeof NUMBER_FIELDS, label: string, help: string) => (
    <NumberInput
      label={label}
      help={help}
      value={fields[field]}
      onChange={set(field)}
      {...NUMBER_FIELDS[field]}
    />
  );
  return (
    <details className="generation" open={open}>
      <summary>{t("generation.title")}</summary>
      <p className="generation__hint">{t("generation.hint")}</p>
      {number("maxTokens", t("generation.maxTokens"), t("generation.maxTokensHelp", NUMBER_FIELDS.maxTokens))}
      {number(
        "temperature",
        t("generation.temperature"),
        t("generation.temperatureHelp", NUMBER_FIELDS.temperature),
      )}
      <CountedTextArea
        label={t("generation.authorsNote")}
        placeholder={t("generation.authorsNoteHelp")}
        value={fields.authorsNote}
        onChange={set("authorsNote")}
        maxLength={limits.AUTHORS_NOTE_MAX_LENGTH}
        rows={3}
      />
      {number(
        "authorsNoteDepth",
        t("generation.depth"),
        t("generation.depthHelp", NUMBER_FIELDS.authorsNoteDepth),
      )}
    </details>
  );
}
