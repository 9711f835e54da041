import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type AdminPreset, listAdminPresets } from "../../../api/admin";

/** The preset characters (admin console). */
export function useAdminPresets(): UseQueryResult<AdminPreset[]> {
  return useQuery({ queryKey: ["admin", "presets"], queryFn: listAdminPresets, staleTime: 0 });
}
