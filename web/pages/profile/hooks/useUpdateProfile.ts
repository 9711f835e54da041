// Saving the profile (POST /users/update) and storing the updated session user (product.md §3, §8).
import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope, SessionUser } from "../../../../common/api";
import { type ProfileInput, updateProfile } from "../../../api/users";
import { saveUser } from "../../../lib/session";

/**
 * Saves the profile (POST /users/update, multipart) and stores the answer's `data`, the updated
 * session user, under the `user` key (product.md §3). A refusal shows as a warning toast (product.md §8).
 */
export function useUpdateProfile(): UseMutationResult<Envelope<SessionUser>, Error, ProfileInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async (answer) => {
      if (answer.data !== undefined) saveUser(answer.data);
      await queryClient.invalidateQueries({ queryKey: ["profile"] });
      await queryClient.invalidateQueries({ queryKey: ["chat-profile"] });
    },
  });
}
