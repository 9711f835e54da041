import { useId } from "react";
import { useTranslation } from "react-i18next";

/** One choice of a `SelectField`. */
export interface SelectOption {
  value: string;
  label: string;
}

interface SelectFieldProps {
  label: string;
  value: string;
  options: SelectOption[];
  onChange: (value: string) => void;
  /** The first, empty choice ('Select a voice'); choosing it leaves the field blank. */
  placeholder: string;
  /** Blank (product.md §5): the field is flagged red with a message. */
  invalid?: boolean;
  disabled?: boolean;
}

/** A labelled select with an empty first choice and the product.md §5 "required" state. */
export function SelectField({
  label,
  value,
  options,
  onChange,
  placeholder,
  invalid = false,
  disabled,
}: SelectFieldProps) {
  const { t } = useTranslation("common");
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={invalid ? "field field--invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="entity-form__control"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid}
        aria-describedby={invalid ? errorId : undefined}
        disabled={disabled}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {invalid && (
        <span id={errorId} className="field__error">
          {t("field.required", { label })}
        </span>
      )}
    </div>
  );
}
