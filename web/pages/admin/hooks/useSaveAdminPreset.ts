// Creating or editing a preset character (admin console) as a mutation.
import type { UseMutationResult } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { type PresetEdit, saveAdminPreset } from "../../../api/admin";
import { useReloadingMutation } from "./adminQueries";

/** Creates or edits a preset character (admin console). */
export function useSaveAdminPreset(): UseMutationResult<Envelope, Error, PresetEdit> {
  return useReloadingMutation(saveAdminPreset, [["admin"], ["presets"]]);
}
