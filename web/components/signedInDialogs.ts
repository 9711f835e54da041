// The signed-in dialogs of product.md §8: 'Please fill in all required fields!' and the delete confirmation.
import { FILL_REQUIRED_FIELDS } from "../../common/validation";
import i18n from "../i18n";
import { AppSwal } from "../lib/dialogs";
import { localValidation } from "../lib/validationText";

/**
 * product.md §8 "Character or profile validation": the modal 'Oops...' with 'Please fill in all
 * required fields!' and a Close button.
 */
export async function showRequiredFieldsAlert(): Promise<void> {
  await AppSwal.fire({
    icon: "error",
    titleText: i18n.t("common:dialog.oops"),
    text: localValidation(FILL_REQUIRED_FIELDS),
    confirmButtonText: i18n.t("common:actions.close"),
  });
}

/**
 * product.md §8 "Delete confirmation": 'Are you sure you want to delete this character?' (or
 * 'group'), "You won't be able to revert this!", 'Yes, delete it!' (#c70039) and Cancel (#aaa).
 * Resolves true when confirmed.
 */
export async function confirmDelete(kind: "character" | "group"): Promise<boolean> {
  const result = await AppSwal.fire({
    icon: "warning",
    titleText: i18n.t(kind === "group" ? "common:dialog.deleteGroup" : "common:dialog.deleteCharacter"),
    text: i18n.t("common:dialog.cannotRevert"),
    showCancelButton: true,
    confirmButtonText: i18n.t("common:dialog.confirmDelete"),
    cancelButtonText: i18n.t("common:actions.cancel"),
  });
  return result.isConfirmed;
}
