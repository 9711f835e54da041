// Importing a character card file (.png or .json, POST /characters/import), then reloading the character list.
import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { importCharacterCard } from "../../../api/characters";

/**
 * Imports a character card file, .png or .json (POST /characters/import, multipart `card`), and
 * reloads the character list. A bad card or the creation limit shows the server's reason as a
 * warning toast.
 */
export function useImportCharacterCard(): UseMutationResult<Envelope, Error, File> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importCharacterCard,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["characters"] }),
  });
}
