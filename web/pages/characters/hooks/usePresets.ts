// Loading the preset characters to choose from (GET /characters/selection).
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { PresetCharacter } from "../../../../common/api";
import { listPresets } from "../../../api/characters";

/** The preset characters to choose from (GET /characters/selection). */
export function usePresets(): UseQueryResult<PresetCharacter[]> {
  return useQuery({ queryKey: ["presets"], queryFn: listPresets, staleTime: 5 * 60_000 });
}
