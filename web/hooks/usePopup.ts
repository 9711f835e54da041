// A popup's open state (menus, the emoji picker), closed by Escape or a press outside it.
import { type RefObject, useEffect, useRef, useState } from "react";

/**
 * A popup's state (a dropdown menu, the emoji picker), from {@link usePopup}: toggle with
 * `setOpen(!open)`, close with `setOpen(false)`. (Kept this small: the site menu brings it into
 * the entry chunk.)
 */
export interface Popup {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Wraps the popup and its button: a press outside it closes the popup. */
  root: RefObject<HTMLDivElement | null>;
}

/**
 * A popup that starts closed and closes on Escape or on a pointer press outside `root`
 * while it is open (the site menu, the chat menus, Create Character, the emoji picker).
 */
export function usePopup(): Popup {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("mousedown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return {
    open,
    setOpen,
    root,
  };
}
