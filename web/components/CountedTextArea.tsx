// A labelled text area with a character limit and a visible used/limit counter (product.md §5, §9).
import { useId } from "react";
import { useTranslation } from "react-i18next";

interface CountedTextAreaProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Most characters allowed (product.md §9: backstory 2000, greeting 800, appearance 100). */
  maxLength: number;
  /** Blank after trimming (product.md §5): the field is flagged red with a message. */
  invalid?: boolean;
  rows?: number;
  placeholder?: string;
}

/**
 * A labelled text area that stops at `maxLength` characters and shows a visible
 * `used/maxLength` counter, with the product.md §5 "required" state.
 */
export function CountedTextArea({
  label,
  value,
  onChange,
  maxLength,
  invalid = false,
  rows = 5,
  placeholder,
}: CountedTextAreaProps) {
  const { t } = useTranslation("common");
  const id = useId();
  const errorId = `${id}-error`;
  const counterId = `${id}-counter`;
  return (
    <div className={invalid ? "field field--invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="entity-form__control"
        rows={rows}
        value={value}
        maxLength={maxLength}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value.slice(0, maxLength))}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${counterId} ${errorId}` : counterId}
      />
      <span className="entity-form__counter-row">
        {invalid ? (
          <span id={errorId} className="field__error">
            {t("field.required", { label })}
          </span>
        ) : (
          <span />
        )}
        <span id={counterId} className="entity-form__counter">
          {value.length}/{maxLength}
        </span>
      </span>
    </div>
  );
}
