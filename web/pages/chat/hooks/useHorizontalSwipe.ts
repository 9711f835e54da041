// Touch swipes between a reply's swipes: the direction of a horizontal move and pointer handlers for it.
import { type PointerEvent, useRef } from "react";

/** How far a finger travels sideways before it is a swipe, CSS pixels. */
export const SWIPE_MIN_PX = 48;

/**
 * A horizontal swipe ("Swipes"): `direction` -1 for a swipe to the right (the previous
 * reply), 1 for a swipe to the left (the next one), or null when the move was not a swipe (too
 * short, or more vertical than sideways: a scroll).
 */
export function swipeDirection(dx: number, dy: number): -1 | 1 | null {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < 2 * Math.abs(dy)) return null;
  return dx < 0 ? 1 : -1;
}

/**
 * Pointer handlers for an element that takes touch swipes: a touch that moves mostly
 * sideways by SWIPE_MIN_PX calls `onSwipe(direction)` when the finger lifts. Mouse and pen are
 * left alone (the arrows are there), and vertical moves stay the list's scroll: give the element
 * `touch-action: pan-y`, so the browser still scrolls vertically (it cancels the pointer then).
 * `onSwipe` undefined: no handlers.
 */
export function useHorizontalSwipe(onSwipe: ((direction: -1 | 1) => void) | undefined) {
  const start = useRef<{ id: number; x: number; y: number } | null>(null);
  if (onSwipe === undefined) return {};
  return {
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      start.current =
        event.pointerType === "touch" ? { id: event.pointerId, x: event.clientX, y: event.clientY } : null;
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      const from = start.current;
      start.current = null;
      if (from === null || from.id !== event.pointerId) return;
      const direction = swipeDirection(event.clientX - from.x, event.clientY - from.y);
      if (direction !== null) onSwipe(direction);
    },
    onPointerCancel: () => {
      start.current = null;
    },
  };
}
