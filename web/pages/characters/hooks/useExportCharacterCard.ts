// Exporting a character as a PNG character card and saving it as a download.
import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { exportCharacterCard } from "../../../api/characters";
import { saveBlob } from "../../../lib/saveBlob";

/**
 * Exports a character as a PNG character card (GET /characters/export/?id=, bearer token via the
 * API client) and saves it as a download under the server's file name. Takes the character id.
 */
export function useExportCharacterCard(): UseMutationResult<void, Error, string> {
  return useMutation({
    mutationFn: async (id: string) => {
      const { blob, fileName } = await exportCharacterCard(id);
      saveBlob(blob, fileName);
    },
  });
}
