// The account forms' shared fields: the e-mail address, a password, and a new password with its confirmation.
import type { FieldValueProps } from "./FieldFrame";
import { TextField, type TextFieldProps } from "./TextField";

type AccountFieldProps = Omit<TextFieldProps, "type" | "autoComplete">;

/** An e-mail field (type and autocomplete "email"), required as the form's `bind` says (product.md §5). */
export function EmailField(props: AccountFieldProps) {
  return <TextField {...props} type="email" autoComplete="email" />;
}

/**
 * A password field: `fresh` for one being chosen (autocomplete "new-password", so a password
 * manager offers to generate it), otherwise the one the user has (autocomplete "current-password").
 */
export function PasswordField({ fresh = false, ...props }: AccountFieldProps & { fresh?: boolean }) {
  return <TextField {...props} type="password" autoComplete={fresh ? "new-password" : "current-password"} />;
}

/**
 * A new password and its confirmation (product.md §2: sign-up, owner set-up, reset, change
 * password), labelled `labels[0]` and `labels[1]`; `autoFocus` focuses the first. The form
 * checks that the two match.
 */
export function NewPasswordFields({
  labels,
  password,
  confirm,
  autoFocus,
}: {
  labels: readonly [string, string];
  password: Omit<FieldValueProps, "label">;
  confirm: Omit<FieldValueProps, "label">;
  autoFocus?: boolean;
}) {
  return (
    <>
      <PasswordField label={labels[0]} fresh autoFocus={autoFocus} {...password} />
      <PasswordField label={labels[1]} fresh {...confirm} />
    </>
  );
}
