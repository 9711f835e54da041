// The phrase of a rotating tagline to show now, advancing every period (product.md §2 Home, Access Denied; §9).
import { useEffect, useState } from "react";

/**
 * The phrase to show now from `phrases`, advancing to the next one every `periodMs` and
 * starting over after the last (product.md §2 Home tagline and Access Denied hints; product.md §9: period
 * 1200 ms). Returns "" for an empty list.
 */
export function useRotatingText(phrases: readonly string[], periodMs: number): string {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (phrases.length < 2) return;
    const timer = window.setInterval(() => setIndex((value) => (value + 1) % phrases.length), periodMs);
    return () => window.clearInterval(timer);
  }, [phrases, periodMs]);
  return phrases[index % Math.max(phrases.length, 1)] ?? "";
}
