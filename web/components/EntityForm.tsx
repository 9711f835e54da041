// The signed-in form pages' frame (profile, change password, character form) and their Cancel and Save footer.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * A signed-in form page's frame (the profile, change password, a character's form): the page
 * heading with its `<h1>` title, then the page's cards.
 */
export function EntityPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="entity-page">
      <div className="page-heading">
        <h1>{title}</h1>
      </div>
      {children}
    </section>
  );
}

/**
 * The footer of an edit form: 'Cancel' (a plain button calling `onCancel`) and the submit
 * button labelled `submitLabel`, disabled while `pending` (the request is in flight, also
 * announced by `aria-busy`) or once `done` (a saved form is not sent twice).
 */
export function FormActions({
  onCancel,
  submitLabel,
  pending,
  done = false,
}: {
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
  done?: boolean;
}) {
  const { t } = useTranslation("common");
  return (
    <div className="entity-form__actions">
      <button type="button" className="button button--ghost" onClick={onCancel}>
        {t("actions.cancel")}
      </button>
      <button type="submit" className="button button--primary" disabled={pending || done} aria-busy={pending}>
        {submitLabel}
      </button>
    </div>
  );
}
