// Deleting a character (product.md §4): dropped from the cached list only once the server confirms; groups reloaded.
import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { CharacterListItem, Envelope } from "../../../../common/api";
import { deleteCharacter } from "../../../api/characters";

/**
 * Deletes a character (DELETE /characters/delete/?id=). product.md §4: only after the server confirms
 * is it removed from the cached list; groups are reloaded since they may have held it.
 * A refusal (e.g. 403 'You cannot delete your only character.') shows as a warning toast.
 */
export function useDeleteCharacter(): UseMutationResult<Envelope, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCharacter,
    onSuccess: async (_answer, id) => {
      queryClient.setQueriesData<CharacterListItem[]>({ queryKey: ["characters"] }, (list) =>
        list?.filter((character) => character.characterUUID !== id),
      );
      queryClient.removeQueries({ queryKey: ["character", id] });
      await queryClient.invalidateQueries({ queryKey: ["groups"] });
    },
  });
}
