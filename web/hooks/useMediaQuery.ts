// Whether a CSS media query matches, live; the reduced-motion and mouse-pointer queries of the public pages.
import { useCallback, useSyncExternalStore } from "react";

/** One MediaQueryList per query: `matchMedia` is costly to call on every render. */
const lists = new Map<string, MediaQueryList>();

function mediaList(query: string): MediaQueryList {
  let list = lists.get(query);
  if (list === undefined) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
}

/** Whether the CSS media query `query` matches now, re-rendering when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = mediaList(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => mediaList(query).matches);
}

/** product.md §2 custom cursor and particles: the visitor asked the system for reduced motion. */
export const REDUCED_MOTION_QUERY = "(prefers-reduced-motion: reduce)";
/** A precise pointer that can hover (a mouse); false on touch screens. */
export const FINE_POINTER_QUERY = "(hover: hover) and (pointer: fine)";
