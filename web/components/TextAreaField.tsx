import { useId } from "react";
import { useTranslation } from "react-i18next";

interface TextAreaFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Blank after trimming (product.md §5): the field is flagged red with a message. */
  invalid?: boolean;
  rows?: number;
}

/** A labelled multi-line input with the product.md §5 "required" state (see `TextField`). */
export function TextAreaField({ label, value, onChange, invalid = false, rows = 5 }: TextAreaFieldProps) {
  const { t } = useTranslation("common");
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={invalid ? "field field--invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid}
        aria-describedby={invalid ? errorId : undefined}
      />
      {invalid && (
        <span id={errorId} className="field__error">
          {t("field.required", { label })}
        </span>
      )}
    </div>
  );
}
