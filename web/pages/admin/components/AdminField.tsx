// One labelled input of the admin forms: text, number, textarea, checkbox or select.
import { useId } from "react";

type Props =
  | { label: string; kind: "text" | "number"; value: string; onChange: (value: string) => void }
  | { label: string; kind: "textarea"; value: string; onChange: (value: string) => void }
  | { label: string; kind: "checkbox"; value: boolean; onChange: (value: boolean) => void }
  | {
      label: string;
      kind: "select";
      value: string;
      onChange: (value: string) => void;
      options: Array<{ value: string; label: string }>;
    };

/** One labelled input of the admin forms. */
export function AdminField(props: Props) {
  const id = useId();
  if (props.kind === "checkbox") {
    return (
      <div className="field field--inline">
        <input
          id={id}
          type="checkbox"
          checked={props.value}
          onChange={(event) => props.onChange(event.target.checked)}
        />
        <label htmlFor={id}>{props.label}</label>
      </div>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.kind === "textarea" ? (
        <textarea
          id={id}
          rows={3}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      ) : props.kind === "select" ? (
        <select id={id} value={props.value} onChange={(event) => props.onChange(event.target.value)}>
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={props.kind}
          min={props.kind === "number" ? 0 : undefined}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </div>
  );
}
