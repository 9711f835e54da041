import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type AdminFreeSubscription, listAdminFreeSubscriptions } from "../../../api/admin";

/** Free-subscription requests, newest first (admin console). */
export function useAdminFreeSubscriptions(): UseQueryResult<AdminFreeSubscription[]> {
  return useQuery({ queryKey: ["admin", "free"], queryFn: listAdminFreeSubscriptions, staleTime: 0 });
}
