// The admin console's site settings: whether the guest demo is open (read fresh on each visit), and its switch.
import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { type AdminSiteSettings, getAdminSite, setAdminDemo } from "../../../api/admin";
import { useAdminQuery, useReloadingMutation } from "./adminQueries";

/** The site settings' query key, under the admin console's ["admin"]. */
export const SITE_QUERY_KEY = ["admin", "site"] as const;

/** Whether the guest demo is open, the sign-up mode and the demo's link. */
export function useAdminSite(): UseQueryResult<AdminSiteSettings> {
  return useAdminQuery(SITE_QUERY_KEY, getAdminSite);
}

/**
 * Opens (true) or closes (false) the guest demo; the settings are read again once it is done. A
 * refusal shows the server's sentence as a toast (the query client's).
 */
export function useSetDemo(): UseMutationResult<Envelope, Error, boolean> {
  return useReloadingMutation(setAdminDemo, [SITE_QUERY_KEY]);
}
