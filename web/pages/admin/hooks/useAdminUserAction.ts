import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { runUserAction, type UserAction } from "../../../api/admin";

/** Changes a user's plan or limits, blocks or unblocks, or resets the count (admin console). */
export function useAdminUserAction(): UseMutationResult<Envelope, Error, UserAction> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runUserAction,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["admin"] });
    },
  });
}
