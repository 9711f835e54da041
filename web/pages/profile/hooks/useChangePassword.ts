// The signed-in password change (PATCH /users/update-password) as a mutation; a refusal shows as a toast (product.md §8).
import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { changePassword, type PasswordChange } from "../../../api/users";

/**
 * The signed-in password change (PATCH /users/update-password, form-encoded). product.md §8: a refusal
 * (wrong current password, too short) shows the server's message as a warning toast.
 */
export function useChangePassword(): UseMutationResult<Envelope, Error, PasswordChange> {
  return useMutation({ mutationFn: changePassword });
}
