// A list row's Delete button (product.md §2, §8): asks for confirmation first, disabled while the delete runs.
import type { UseMutationResult } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { confirmDelete } from "../../../components/signedInDialogs";

interface DeleteRowButtonProps {
  /** What the confirmation names (product.md §8: 'delete this character?' or 'group?'). */
  kind: "character" | "group";
  /** The delete mutation, called with `id` once confirmed. */
  remove: UseMutationResult<unknown, Error, string>;
  id: string;
  /** The row's accessible name after 'Delete ' ('Ann', 'group of Ann and Bea'). */
  label: string;
}

/**
 * A list row's Delete button (product.md §2): asks first (product.md §8 delete confirmation) and deletes
 * only when confirmed; while a delete is under way it is disabled and a click does nothing.
 */
export function DeleteRowButton({ kind, remove, id, label }: DeleteRowButtonProps) {
  const { t } = useTranslation("characters");
  const onDelete = async () => {
    if (remove.isPending) return;
    if (!(await confirmDelete(kind))) return;
    remove.mutate(id);
  };
  return (
    <button
      type="button"
      className="button button--danger button--small"
      onClick={() => void onDelete()}
      disabled={remove.isPending}
      aria-label={t("table.deleteOf", { label })}
    >
      {t("table.delete")}
    </button>
  );
}
