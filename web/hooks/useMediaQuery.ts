// Whether a CSS media query matches, live; the reduced-motion and mouse-pointer queries of the public pages.
import { useCallback, useSyncExternalStore } from "react";

/** Whether the CSS media query `query` matches now, re-rendering when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

/** product.md §2 custom cursor and particles: the visitor asked the system for reduced motion. */
export const REDUCED_MOTION_QUERY = "(prefers-reduced-motion: reduce)";
/** A precise pointer that can hover (a mouse); false on touch screens. */
export const FINE_POINTER_QUERY = "(hover: hover) and (pointer: fine)";
