// The chat's left sidebar: open beside the chat on wide screens, a drawer over it on narrow ones.
import { useEffect, useId, useState } from "react";
import { useMediaQuery } from "../../hooks/useMediaQuery";

/** Narrow screens get the sidebar as a drawer, closed at first. */
const NARROW_QUERY = "(max-width: 768px)";

/** The sidebar's state: its element id, whether it is open, and the user's choice to open or close it. */
export interface SidebarDrawer {
  id: string;
  open: boolean;
  setOpen: (open: boolean) => void;
}

/**
 * The sidebar is open until the user closes it on wide screens (max-width 768 px is narrow), closed
 * at first on narrow ones. On narrow screens it is a drawer over the chat: it takes the focus while
 * open, Escape closes it like a popup, and the focus goes back to the toggle.
 */
export function useSidebarDrawer(): SidebarDrawer {
  const narrow = useMediaQuery(NARROW_QUERY);
  const [choice, setChoice] = useState<boolean | null>(null);
  const open = choice ?? !narrow;
  const id = useId();

  useEffect(() => {
    if (!narrow || !open) return;
    const drawer = document.getElementById(id);
    drawer?.querySelector<HTMLElement>("button")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setChoice(false);
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (drawer?.contains(document.activeElement) || document.activeElement === document.body)
        document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(id)}"]`)?.focus();
    };
  }, [narrow, open, id]);

  return { id, open, setOpen: setChoice };
}
