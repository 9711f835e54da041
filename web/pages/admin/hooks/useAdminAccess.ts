// Whether the signed-in user is an admin, as the server says (GET /admin/me), asked only for a session user marked admin.
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type AdminMe, getAdminMe } from "../../../api/admin";

/**
 * Whether the signed-in user is an admin, as the server says (GET /admin/me). Asked only
 * when `enabled` (the session user says admin), so nobody else's visit logs a refusal. Not
 * retried and silent: a refusal means "not an admin" and the page redirects.
 */
export function useAdminAccess(enabled = true): UseQueryResult<AdminMe> {
  return useQuery({
    queryKey: ["admin", "me"],
    queryFn: getAdminMe,
    enabled,
    meta: { silent: true },
    staleTime: 0,
  });
}
