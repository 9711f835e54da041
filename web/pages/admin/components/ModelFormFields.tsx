// The Models form's own fields: the API key, the model id with "Load models", the embedded file and the generation numbers.
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { ModelGeneration } from "../../../../common/models-api";
import { ActionButton } from "./ActionButton";
import { AdminField } from "./AdminField";
import { GENERATION_FIELDS, GENERATION_LIMITS, type ModelFormValues } from "./modelFormState";

/**
 * The API key: a password input that starts empty (a stored key is never sent back). With a key
 * stored, empty keeps it and "Remove the stored key" removes it (the input is then off).
 */
export function ApiKeyField({
  value,
  hasStoredKey,
  removeKey,
  onChange,
  onRemoveKey,
}: {
  value: string;
  hasStoredKey: boolean;
  removeKey: boolean;
  onChange: (value: string) => void;
  onRemoveKey: (value: boolean) => void;
}) {
  const { t } = useTranslation("models");
  const id = useId();
  const hintId = useId();
  return (
    <>
      <div className="field">
        <label htmlFor={id}>{t("form.apiKey")}</label>
        <input
          id={id}
          type="password"
          autoComplete="new-password"
          autoCapitalize="off"
          spellCheck={false}
          value={value}
          disabled={removeKey}
          placeholder={hasStoredKey ? t("form.apiKeyKeep") : ""}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.value)}
        />
        <span id={hintId} className="muted admin-models__hint">
          {hasStoredKey ? t("form.apiKeyStoredHint") : t("form.apiKeyNewHint")}
        </span>
      </div>
      {hasStoredKey && (
        <AdminField label={t("form.removeKey")} kind="checkbox" value={removeKey} onChange={onRemoveKey} />
      )}
    </>
  );
}

/**
 * The endpoint's model id: free text, with "Load models" asking the endpoint for its ids, which
 * then show in a select (picking one fills the text).
 */
export function ModelIdField({
  value,
  loadedModels,
  loading,
  onChange,
  onLoad,
}: {
  value: string;
  loadedModels: string[] | null;
  loading: boolean;
  onChange: (value: string) => void;
  onLoad: () => void;
}) {
  const { t } = useTranslation("models");
  const id = useId();
  return (
    <>
      <div className="field">
        <label htmlFor={id}>{t("form.model")}</label>
        <div className="admin-models-form__model">
          <input
            id={id}
            type="text"
            autoCapitalize="off"
            spellCheck={false}
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
          <ActionButton busy={loading} onClick={onLoad}>
            {loading ? t("form.loadingModels") : t("form.loadModels")}
          </ActionButton>
        </div>
      </div>
      {loadedModels !== null &&
        (loadedModels.length === 0 ? (
          <p className="muted" role="status">
            {t("form.noModelsFound")}
          </p>
        ) : (
          <AdminField
            label={t("form.loadedModels", { n: loadedModels.length })}
            kind="select"
            value={loadedModels.includes(value) ? value : ""}
            onChange={(picked) => {
              if (picked !== "") onChange(picked);
            }}
            options={[
              { value: "", label: t("form.pickModel") },
              ...loadedModels.map((model) => ({ value: model, label: model })),
            ]}
          />
        ))}
    </>
  );
}

/**
 * The GGUF file an embedded connection runs: one of the server's files (the server takes no other
 * path); when it lists none, a note saying where to put one.
 */
export function EmbeddedFileField({
  value,
  files,
  onChange,
}: {
  value: string;
  files: readonly string[];
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation("models");
  if (files.length === 0) return <p className="muted admin-models__hint">{t("form.noEmbeddedFiles")}</p>;
  const options = (value === "" || files.includes(value) ? files : [value, ...files]).map((file) => ({
    value: file,
    label: file,
  }));
  return (
    <AdminField
      label={t("form.embeddedFile")}
      kind="select"
      value={value}
      onChange={onChange}
      options={options}
    />
  );
}

/** One generation number with its range (min, max, step) and the range as its description. */
function NumberField({
  field,
  value,
  onChange,
}: {
  field: keyof ModelGeneration;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation("models");
  const id = useId();
  const hintId = useId();
  const { min, max, step, whole } = GENERATION_LIMITS[field];
  return (
    <div className="field">
      <label htmlFor={id}>{t(`form.${field}`)}</label>
      <input
        id={id}
        type="number"
        inputMode={whole ? "numeric" : "decimal"}
        min={min}
        max={max}
        step={step}
        value={value}
        aria-describedby={hintId}
        onChange={(event) => onChange(event.target.value)}
      />
      <span id={hintId} className="muted admin-models__hint">
        {t("form.range", { min, max })}
      </span>
    </div>
  );
}

/** Reply length, temperature and context size, side by side where there is room. */
export function GenerationFields({
  values,
  onChange,
}: {
  values: ModelFormValues;
  onChange: (field: keyof ModelGeneration, value: string) => void;
}) {
  const { t } = useTranslation("models");
  return (
    <fieldset className="admin-models-form__numbers">
      <legend>{t("form.generation")}</legend>
      {GENERATION_FIELDS.map((field) => (
        <NumberField key={field} field={field} value={values[field]} onChange={(v) => onChange(field, v)} />
      ))}
    </fieldset>
  );
}
