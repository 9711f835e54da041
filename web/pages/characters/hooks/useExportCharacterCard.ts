import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { exportCharacterCard } from "../../../api/characters";

/** Hands `blob` to the browser as a download named `fileName`. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the object URL; give the browser a moment before freeing it.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

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
