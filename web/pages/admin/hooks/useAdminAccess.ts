import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type AdminMe, getAdminMe } from "../../../api/admin";

/**
 * Whether the signed-in user is an admin, as the server says (GET /admin/me; issue 9). Not
 * retried and silent: a refusal means "not an admin" and the page redirects.
 */
export function useAdminAccess(): UseQueryResult<AdminMe> {
  return useQuery({ queryKey: ["admin", "me"], queryFn: getAdminMe, meta: { silent: true }, staleTime: 0 });
}
