// The character form's collapsible Generation section: reply length, temperature, author's note and its depth.
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import * as limits from "../../../../common/generation";
import type { GenerationFields } from "../../../api/characters";
import { CountedTextArea } from "../../../components/CountedTextArea";
import { hasGeneration } from "../generationDraft";

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
  return (
    <details className="generation" open={open}>
      <summary>{t("generation.title")}</summary>
      <p className="generation__hint">{t("generation.hint")}</p>
      <NumberInput
        label={t("generation.maxTokens")}
        help={t("generation.maxTokensHelp", { min: limits.MAX_TOKENS_MIN, max: limits.MAX_TOKENS_MAX })}
        value={fields.maxTokens}
        onChange={set("maxTokens")}
        min={limits.MAX_TOKENS_MIN}
        max={limits.MAX_TOKENS_MAX}
        step={1}
      />
      <NumberInput
        label={t("generation.temperature")}
        help={t("generation.temperatureHelp", { min: limits.TEMPERATURE_MIN, max: limits.TEMPERATURE_MAX })}
        value={fields.temperature}
        onChange={set("temperature")}
        min={limits.TEMPERATURE_MIN}
        max={limits.TEMPERATURE_MAX}
        step={0.05}
      />
      <CountedTextArea
        label={t("generation.authorsNote")}
        placeholder={t("generation.authorsNoteHelp")}
        value={fields.authorsNote}
        onChange={set("authorsNote")}
        maxLength={limits.AUTHORS_NOTE_MAX_LENGTH}
        rows={3}
      />
      <NumberInput
        label={t("generation.depth")}
        help={t("generation.depthHelp", { max: limits.AUTHORS_NOTE_DEPTH_MAX })}
        value={fields.authorsNoteDepth}
        onChange={set("authorsNoteDepth")}
        min={0}
        max={limits.AUTHORS_NOTE_DEPTH_MAX}
        step={1}
      />
    </details>
  );
}
