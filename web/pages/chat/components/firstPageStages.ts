// Opening a chat, or jumping back to its newest messages: the bubbles shown in stages, newest first.
import { startTransition, useCallback, useEffect, useState } from "react";
import { nextTask } from "../../../lib/nextTask";

/**
 * Opening a chat, its first page (product.md §9: 10 entries, up to 20 bubbles) is shown newest
 * first: this many bubbles in the first frame (more than a phone's view holds), then this many more
 * a frame, so no one frame lays out and paints the whole page (measured: one frame of 100-200 ms
 * at a phone's speed for 20 bubbles, bench/markdown-stream.bench.ts `open`). The same holds for the
 * newest bubbles rendered anew when the list jumps back to them from far up ("Scroll to bottom").
 */
export const FIRST_FRAME_ROWS = 6;

/** The stages of the first page (or of a jump to the newest), for the list's render window (`useMessageListScroll`). */
export interface FirstPageStages {
  /** How many of the newest bubbles to render (unbounded once every loaded bubble shows). */
  newest: number;
  /** The bubbles are still being shown, a stage a frame. */
  active: boolean;
  /** Shows every loaded bubble at once (a jump to a message, or the list scrolled to its top meanwhile). */
  finish: () => void;
  /** Shows the bubbles in stages again, newest first (the list jumps back to its newest bubbles). */
  restart: () => void;
}

/**
 * The first page shown in stages (see FIRST_FRAME_ROWS) while the list would render `bubbleCount`
 * bubbles: the newest shown grow by FIRST_FRAME_ROWS once each stage has been painted (an
 * animation frame, then a task of its own, rendered as a transition) until all show; `restart`
 * starts again from FIRST_FRAME_ROWS.
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
  const restart = useCallback(() => setNewest(FIRST_FRAME_ROWS), []);
  return { newest, active, finish, restart };
}
