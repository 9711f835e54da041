// Saving a character, new or edited (POST /characters/create or /update, multipart), then refreshing the lists.
import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { type CharacterInput, saveCharacter } from "../../../api/characters";

/**
 * Creates (no `id`) or updates (with `id`) a character (POST /characters/create or
 * /characters/update, multipart) and refreshes the lists. product.md §8: a success 0 or HTTP 4xx
 * becomes an `ApiError` that the query client shows as a warning toast (bottom-right, 2 s).
 */
export function useSaveCharacter(): UseMutationResult<Envelope, Error, CharacterInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCharacter,
    onSuccess: async (_answer, input) => {
      await queryClient.invalidateQueries({ queryKey: ["characters"] });
      if (input.id !== undefined) queryClient.removeQueries({ queryKey: ["character", input.id] });
    },
  });
}
