// Deleting a group (product.md §4): dropped from the cached group list only once the server confirms.
import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { type CharacterGroup, deleteGroup } from "../../../api/characters";

/**
 * Deletes a group (DELETE /characters/group/delete/?id=). product.md §4: removed from the cached list
 * only after the server confirms. A refusal shows as a warning toast.
 */
export function useDeleteGroup(): UseMutationResult<Envelope, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGroup,
    onSuccess: (_answer, id) => {
      queryClient.setQueriesData<CharacterGroup[]>({ queryKey: ["groups"] }, (list) =>
        list?.filter((group) => group.groupUUID !== id),
      );
    },
  });
}
