// The admin console's preset characters as a query.
import type { UseQueryResult } from "@tanstack/react-query";
import { type AdminPreset, listAdminPresets } from "../../../api/admin";
import { useAdminQuery } from "./adminQueries";

/** The preset characters (admin console). */
export function useAdminPresets(): UseQueryResult<AdminPreset[]> {
  return useAdminQuery(["admin", "presets"], listAdminPresets);
}
