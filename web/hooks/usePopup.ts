import { type RefObject, useEffect, useId, useRef, useState } from "react";

/** A popup's state (a dropdown menu, the emoji picker), from {@link usePopup}: toggle with `setOpen(!open)`. */
export interface Popup {
  open: boolean;
  setOpen: (open: boolean) => void;
  close: () => void;
  /** Wraps the popup and its button: a press outside it closes the popup. */
  root: RefObject<HTMLDivElement | null>;
  /** For the popup's `id` and its button's `aria-controls`. */
  id: string;
}

/**
 * A popup that starts closed and closes on Escape or on a pointer press outside `root`
 * while it is open (the site menu, the chat menus, Create Character, the emoji picker).
 */
export function usePopup(): Popup {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const id = useId();
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
    close: () => setOpen(false),
    root,
    id,
  };
}
