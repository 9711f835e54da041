// Creating a character from a preset (POST /characters/create-preselect), then refreshing the character list.
import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { createFromPreset } from "../../../api/characters";

/**
 * Creates a character from a preset (POST /characters/create-preselect, `id` =
 * characterPreDefinedUUID) and refreshes the character list. A success 0 becomes an
 * `ApiError` that the query client shows as a warning toast (product.md §8).
 */
export function useCreateFromPreset(): UseMutationResult<Envelope, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFromPreset,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["characters"] }),
  });
}
