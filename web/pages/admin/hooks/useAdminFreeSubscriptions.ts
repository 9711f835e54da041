// The admin console's free-subscription requests as a query.
import type { UseQueryResult } from "@tanstack/react-query";
import { type AdminFreeSubscription, listAdminFreeSubscriptions } from "../../../api/admin";
import { useAdminQuery } from "./adminQueries";

/** Free-subscription requests, newest first (admin console). */
export function useAdminFreeSubscriptions(): UseQueryResult<AdminFreeSubscription[]> {
  return useAdminQuery(["admin", "free"], listAdminFreeSubscriptions);
}
