// A labelled multi-line input with the "required" state (product.md §5).
import { FieldFrame, type FieldValueProps } from "./FieldFrame";

/** A labelled multi-line input with the product.md §5 "required" state (see `TextField`). */
export function TextAreaField({ rows = 5, ...field }: FieldValueProps & { rows?: number }) {
  return <FieldFrame {...field} render={(control) => <textarea {...control} rows={rows} />} />;
}
