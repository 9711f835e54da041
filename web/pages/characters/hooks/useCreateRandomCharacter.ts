// Creating a random character (product.md §4, POST /characters/create-random), then reloading the character list.
import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { createRandomCharacter } from "../../../api/characters";

/**
 * Creates a random character (POST /characters/create-random) and reloads the character list
 * (product.md §4). A refusal (e.g. at the creation limit) shows as a warning toast.
 */
export function useCreateRandomCharacter(): UseMutationResult<Envelope, Error, void> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createRandomCharacter(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["characters"] }),
  });
}
