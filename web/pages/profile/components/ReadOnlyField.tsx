// A labelled value of the profile the user cannot change (e-mail, plan, chat limit, chat count).
import { useId } from "react";

/** A labelled value the user cannot change (product.md §2 Profile: email, plan, chat limit, chat count). */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="field field--readonly">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" value={value} readOnly />
    </div>
  );
}
