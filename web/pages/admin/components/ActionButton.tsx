// The admin console's plain buttons: a row's actions, "Edit", "Load models".
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface ActionButtonProps {
  /** The button's look: `button--ghost` (the default), `button--primary` or `button--danger`. */
  look?: "ghost" | "primary" | "danger";
  /** Adds `button--small` (the Models table's row actions). */
  small?: boolean;
  /** The accessible name, where the visible text alone does not say which row it acts on. */
  label?: string;
  disabled?: boolean;
  /** While true the button is disabled and `aria-busy`; left out, no `aria-busy` at all. */
  busy?: boolean;
  onClick: () => void;
  children: ReactNode;
}

/** A `type="button"` button of the admin console. */
export function ActionButton({
  look = "ghost",
  small,
  label,
  disabled,
  busy,
  onClick,
  children,
}: ActionButtonProps) {
  return (
    <button
      type="button"
      className={`button button--${look}${small ? " button--small" : ""}`}
      aria-label={label}
      disabled={disabled || busy}
      aria-busy={busy}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** A row's "Edit" button, named "Edit <name>" for screen readers (plans, preset characters). */
export function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  const { t } = useTranslation("admin");
  return (
    <ActionButton label={t("common.editOf", { name })} onClick={onClick}>
      {t("common.edit")}
    </ActionButton>
  );
}
