// A plain button of the chat screen named by its aria label: an icon or a glyph, not a word.
import type { ButtonHTMLAttributes } from "react";

type IconButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "aria-label"> & {
  /** What the button does, for assistive technology (its aria-label). */
  label: string;
};

/** A `type="button"` with `label` as its aria-label; the class defaults to "icon-button". */
export function IconButton({ label, className = "icon-button", ...rest }: IconButtonProps) {
  return <button type="button" className={className} aria-label={label} {...rest} />;
}
