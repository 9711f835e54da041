// A small rotating loading ring with an accessible status name.
import { useTranslation } from "react-i18next";

interface SpinnerProps {
  /** Accessible name; defaults to 'Loading'. */
  label?: string;
  size?: "small" | "medium";
}

/** A small rotating ring with an accessible status name. */
export function Spinner({ label, size = "medium" }: SpinnerProps) {
  const { t } = useTranslation("common");
  return (
    <span className={`spinner spinner--${size}`} role="status" aria-label={label ?? t("loading.default")} />
  );
}
