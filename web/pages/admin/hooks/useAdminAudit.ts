// The admin console's audit log of admin actions as a query.
import type { UseQueryResult } from "@tanstack/react-query";
import { type AdminAuditEntry, listAdminAudit } from "../../../api/admin";
import { useAdminQuery } from "./adminQueries";

/** The audit log of admin actions, newest first. */
export function useAdminAudit(): UseQueryResult<AdminAuditEntry[]> {
  return useAdminQuery(["admin", "audit"], listAdminAudit);
}
