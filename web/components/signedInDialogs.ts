import { FILL_REQUIRED_FIELDS } from "../../common/validation";
import { AppSwal } from "../lib/dialogs";

/**
 * spec 8 "Character or profile validation": the modal 'Oops...' with 'Please fill in all
 * required fields!' and a Close button.
 */
export async function showRequiredFieldsAlert(): Promise<void> {
  await AppSwal.fire({
    icon: "error",
    titleText: "Oops...",
    text: FILL_REQUIRED_FIELDS,
    confirmButtonText: "Close",
  });
}

/**
 * spec 8 "Delete confirmation": 'Are you sure you want to delete this character?' (or
 * 'group'), "You won't be able to revert this!", 'Yes, delete it!' (#c70039) and Cancel (#aaa).
 * Resolves true when confirmed.
 */
export async function confirmDelete(kind: "character" | "group"): Promise<boolean> {
  const result = await AppSwal.fire({
    icon: "warning",
    titleText: `Are you sure you want to delete this ${kind}?`,
    text: "You won't be able to revert this!",
    showCancelButton: true,
    confirmButtonText: "Yes, delete it!",
    cancelButtonText: "Cancel",
  });
  return result.isConfirmed;
}
