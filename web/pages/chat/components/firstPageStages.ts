// Opening a chat: its first page of history shown in stages, newest first.
import { type RefObject, startTransition, useCallback, useEffect, useState } from "react";
import { nextTask } from "../../../lib/nextTask";

/**
 * Opening a chat, its first page (product.md §9: 10 entries, up to 20 bubbles) is shown newest
 * first: this many bubbles in the first frame (more than a phone's view holds), then this many more
 * a frame, so no one frame lays out and paints the whole page (measured: one frame of 100-200 ms
 * at a phone's speed for 20 bubbles, bench/markdown-stream.bench.ts `open`).
 */
export const FIRST_FRAME_ROWS = 6;

/** The first page's stages, for the list's render window (`useMessageListScroll`). */
export interface FirstPageStages {
  /** How many of the newest bubbles to render (unbounded once every loaded bubble shows). */
  newest: number;
  /** The first page is still being shown, a stage a frame. */
  active: boolean;
  /** Shows every loaded bubble at once (a jump to a message, or the list scrolled to its top meanwhile). */
  finish: () => void;
  /** Keeps `list` at its bottom, if it follows the bottom, at the next frame (where the browser lays the stage out anyway). */
  followAtNextFrame: (list: HTMLElement, followBottom: RefObject<boolean>) => void;
}

/**
 * The first page shown in stages (see FIRST_FRAME_ROWS) while the list holds `bubbleCount`
 * bubbles: the newest shown grow by FIRST_FRAME_ROWS once each stage has been painted (an
 * animation frame, then a task of its own, rendered as a transition) until all show.
 */
export function useFirstPageStages(bubbleCount: number): FirstPageStages {
  const [newest, setNewest] = useState(FIRST_FRAME_ROWS);
  const active = newest !== Number.POSITIVE_INFINITY;

  useEffect(() => {
    if (!active || bubbleCount === 0) return;
    if (bubbleCount <= newest) {
      setNewest(Number.POSITIVE_INFINITY);
      return;
    }
    let cancelled = false;
    const frame = requestAnimationFrame(() => {
      void nextTask().then(() => {
        if (!cancelled) startTransition(() => setNewest((shown) => shown + FIRST_FRAME_ROWS));
      });
    });
    return () => {
      cancelled = true;
      cancelAnimationFrame(frame);
    };
  }, [active, bubbleCount, newest]);

  const finish = useCallback(() => setNewest(Number.POSITIVE_INFINITY), []);
  return { newest, active, finish, followAtNextFrame };
}

/** See `FirstPageStages.followAtNextFrame`. */
function followAtNextFrame(list: HTMLElement, followBottom: RefObject<boolean>): void {
  requestAnimationFrame(() => {
    if (followBottom.current) list.scrollTop = list.scrollHeight;
  });
}
