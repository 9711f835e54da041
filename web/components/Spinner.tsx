interface SpinnerProps {
  /** Accessible name; defaults to 'Loading'. */
  label?: string;
  size?: "small" | "medium";
}

/** A small rotating ring with an accessible status name. */
export function Spinner({ label = "Loading", size = "medium" }: SpinnerProps) {
  return <span className={`spinner spinner--${size}`} role="status" aria-label={label} />;
}
