// A chat control's 22 px icon on a 24-unit grid, hidden from assistive technology.
import type { ReactNode } from "react";

/**
 * A chat control's 22 px icon on a 24-unit grid, hidden from assistive technology (the button
 * carries the label): the shape `d` filled with the text colour, or the shapes given as children.
 */
export function ChatIcon({ d, children }: { d?: string; children?: ReactNode }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      {d !== undefined && <path d={d} fill="currentColor" />}
      {children}
    </svg>
  );
}
