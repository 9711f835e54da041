// The frame every labelled form field shares: the label, the control's id and aria wiring, and the "required" message.
import { type ChangeEvent, type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";

/** What a field's caller passes: its label, its value and change handler, and its "required" flag. */
export interface FieldValueProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Blank after trimming (product.md §5): the field is flagged red with a message. */
  invalid?: boolean;
}

/** The props the frame hands to its control (`<input>`, `<textarea>` or `<select>`). */
export interface FieldControlProps {
  id: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => void;
  "aria-invalid": boolean;
  /** The message's id while the field is flagged, so a screen reader reads it with the control. */
  "aria-describedby": string | undefined;
}

/**
 * A labelled field with the product.md §5 "required" state: the wrapper (`field`, plus
 * `field--invalid` while flagged), the label tied to the control `render` returns, and while
 * flagged the message 'Please fill in <label>.' (catalogue "common", `field.required`).
 */
export function FieldFrame({
  label,
  value,
  onChange,
  invalid = false,
  render,
}: FieldValueProps & { render: (control: FieldControlProps) => ReactNode }) {
  const { t } = useTranslation("common");
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={invalid ? "field field--invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      {render({
        id,
        value,
        onChange: (event) => onChange(event.target.value),
        "aria-invalid": invalid,
        "aria-describedby": invalid ? errorId : undefined,
      })}
      {invalid && (
        <span id={errorId} className="field__error">
          {t("field.required", { label })}
        </span>
      )}
    </div>
  );
}
