// A labelled select with an empty first choice and the "required" state (product.md §5).
import { FieldFrame, type FieldValueProps } from "./FieldFrame";

/** One choice of a `SelectField`. */
export interface SelectOption {
  value: string;
  label: string;
}

interface SelectFieldProps extends FieldValueProps {
  options: SelectOption[];
  /** The first, empty choice ('Select a voice'); choosing it leaves the field blank. */
  placeholder: string;
  disabled?: boolean;
}

/** A labelled select with an empty first choice and the product.md §5 "required" state. */
export function SelectField({ options, placeholder, disabled, ...field }: SelectFieldProps) {
  return (
    <FieldFrame
      {...field}
      render={(control) => (
        <select {...control} className="entity-form__control" disabled={disabled}>
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}
