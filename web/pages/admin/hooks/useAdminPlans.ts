// The admin console's plans, with prices, grants and user counts, as a query.
import type { UseQueryResult } from "@tanstack/react-query";
import { type AdminPlan, listAdminPlans } from "../../../api/admin";
import { useAdminQuery } from "./adminQueries";

/** The plans with their prices, grants and user counts (admin console). */
export function useAdminPlans(): UseQueryResult<AdminPlan[]> {
  return useAdminQuery(["admin", "plans"], listAdminPlans);
}
