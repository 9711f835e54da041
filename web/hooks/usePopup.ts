import { type RefObject, useCallback, useEffect, useId, useRef, useState } from "react";

/** A popup's state (a dropdown menu, the emoji picker), from {@link usePopup}. */
export interface Popup {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Opens a closed popup, closes an open one. */
  toggle: () => void;
  close: () => void;
  /** Wraps the popup and its button: a press outside it closes the popup. */
  root: RefObject<HTMLDivElement | null>;
  /** For the popup's `id` and its button's `aria-controls`. */
  id: string;
  /** A menu entry's click handler: closes the popup, then runs `action`. */
  pick: (action: () => void) => () => void;
}

/**
 * A popup that starts closed and closes on Escape or on a pointer press outside `root`
 * while it is open (the site menu, the chat menus, Create Character, the emoji picker).
 */
export function usePopup(): Popup {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = useCallback(() => setOpen(false), []);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    document.addEventListener("mousedown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, close]);
  return {
    open,
    setOpen,
    toggle: () => setOpen((value) => !value),
    close,
    root,
    id,
    pick: (action) => () => {
      setOpen(false);
      action();
    },
  };
}
