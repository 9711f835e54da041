// A labelled single-line input with the "required" state (product.md §5).
import { FieldFrame, type FieldValueProps } from "./FieldFrame";

/** The props of a `TextField`; the account fields (AccountFields.tsx) pass them through. */
export interface TextFieldProps extends FieldValueProps {
  type?: "text" | "email" | "password";
  autoComplete?: string;
  autoFocus?: boolean;
}

/** A labelled input that shows the product.md §5 "required" state. */
export function TextField({ type = "text", autoComplete, autoFocus, ...field }: TextFieldProps) {
  return (
    <FieldFrame
      {...field}
      render={(control) => (
        <input
          {...control}
          type={type}
          autoComplete={autoComplete}
          // biome-ignore lint/a11y/noAutofocus: the sign-in form's first field, as on any login page
          autoFocus={autoFocus}
        />
      )}
    />
  );
}
