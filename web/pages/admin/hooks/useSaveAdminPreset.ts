import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { type PresetEdit, saveAdminPreset } from "../../../api/admin";

/** Creates or edits a preset character (admin console). */
export function useSaveAdminPreset(): UseMutationResult<Envelope, Error, PresetEdit> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAdminPreset,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["admin"] });
      await queryClient.invalidateQueries({ queryKey: ["presets"] });
    },
  });
}
