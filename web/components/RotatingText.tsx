// A tagline that shows one phrase at a time, every 1200 ms (product.md §9), on Home and Access Denied.
import { useRotatingText } from "../hooks/useRotatingText";

/** product.md §9: "rotating text period 1200 ms". */
export const ROTATING_TEXT_PERIOD_MS = 1200;

interface RotatingTextProps {
  phrases: readonly string[];
  /** product.md §9: rotating text period 1200 ms. */
  periodMs?: number;
  className?: string;
}

/**
 * Shows one phrase at a time, cycling through `phrases` (product.md §2 Home tagline, Access Denied
 * hints). Each new phrase fades in; screen readers are not interrupted on every change.
 */
export function RotatingText({ phrases, periodMs = ROTATING_TEXT_PERIOD_MS, className }: RotatingTextProps) {
  const phrase = useRotatingText(phrases, periodMs);
  return (
    <span className={className ? `rotating-text ${className}` : "rotating-text"} aria-live="off">
      <span key={phrase} className="rotating-text__phrase">
        {phrase}
      </span>
    </span>
  );
}
