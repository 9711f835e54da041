// The admin console's user search (e-mail or name) as a query.
import { keepPreviousData, type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type AdminUser, searchAdminUsers } from "../../../api/admin";

/** Users matching `query` (e-mail or name; admin console). */
export function useAdminUsers(query: string): UseQueryResult<AdminUser[]> {
  return useQuery({
    queryKey: ["admin", "users", query],
    queryFn: () => searchAdminUsers(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
