// The forms' "required" check in the browser (product.md §5): blank fields flagged red on submit and while typing.
import { useCallback, useMemo, useState } from "react";

export interface RequiredFields<K extends string> {
  values: Record<K, string>;
  /** True for a field that is blank after trimming and was emptied or submitted (product.md §5). */
  invalid: Record<K, boolean>;
  setValue: (name: K, value: string) => void;
  /** Flags every blank field; true when none is blank (then the form may be sent). */
  validate: () => boolean;
  /**
   * The props of one field's input (`TextField`, `TextAreaField`, `SelectField`,
   * `CountedTextArea`): its value, its flag and a change handler that sets it.
   */
  bind: (name: K) => { value: string; invalid: boolean; onChange: (value: string) => void };
  /** Back to the initial values with nothing flagged (product.md §2: the contact form is cleared after sending). */
  reset: () => void;
}

/**
 * Client-side "required" validation (product.md §5): a field is flagged red when blank after
 * trimming, on submit and live while typing as soon as it becomes empty.
 */
export function useRequiredFields<K extends string>(initial: Record<K, string>): RequiredFields<K> {
  const [initialValues] = useState(initial);
  const [values, setValues] = useState<Record<K, string>>(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});

  const setValue = useCallback((name: K, value: string) => {
    setValues((previous) => ({ ...previous, [name]: value }));
    if (value.trim() === "") setTouched((previous) => ({ ...previous, [name]: true }));
  }, []);

  const invalid = useMemo(() => {
    const result = {} as Record<K, boolean>;
    for (const name of Object.keys(values) as K[]) {
      result[name] = touched[name] === true && values[name].trim() === "";
    }
    return result;
  }, [values, touched]);

  const validate = useCallback(() => {
    const names = Object.keys(values) as K[];
    setTouched(Object.fromEntries(names.map((name) => [name, true])) as Record<K, boolean>);
    return names.every((name) => values[name].trim() !== "");
  }, [values]);

  const reset = useCallback(() => {
    setValues(initialValues);
    setTouched({});
  }, [initialValues]);

  const bind = (name: K) => ({
    value: values[name],
    invalid: invalid[name],
    onChange: (value: string) => setValue(name, value),
  });

  return { values, invalid, setValue, validate, reset, bind };
}
