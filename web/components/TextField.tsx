import { useId } from "react";
import { useTranslation } from "react-i18next";

interface TextFieldProps {
  label: string;
  type?: "text" | "email" | "password";
  value: string;
  onChange: (value: string) => void;
  /** Blank after trimming (product.md §5): the field is flagged red with a message. */
  invalid?: boolean;
  autoComplete?: string;
  autoFocus?: boolean;
}

/** A labelled input that shows the product.md §5 "required" state. */
export function TextField({
  label,
  type = "text",
  value,
  onChange,
  invalid = false,
  autoComplete,
  autoFocus,
}: TextFieldProps) {
  const { t } = useTranslation("common");
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={invalid ? "field field--invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid}
        aria-describedby={invalid ? errorId : undefined}
        autoComplete={autoComplete}
        // biome-ignore lint/a11y/noAutofocus: the sign-in form's first field, as on any login page
        autoFocus={autoFocus}
      />
      {invalid && (
        <span id={errorId} className="field__error">
          {t("field.required", { label })}
        </span>
      )}
    </div>
  );
}
