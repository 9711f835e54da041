import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type AdminPlan, listAdminPlans } from "../../../api/admin";

/** The plans with their prices, grants and user counts (admin console). */
export function useAdminPlans(): UseQueryResult<AdminPlan[]> {
  return useQuery({ queryKey: ["admin", "plans"], queryFn: listAdminPlans, staleTime: 0 });
}
