import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type AdminAuditEntry, listAdminAudit } from "../../../api/admin";

/** The audit log of admin actions, newest first. */
export function useAdminAudit(): UseQueryResult<AdminAuditEntry[]> {
  return useQuery({ queryKey: ["admin", "audit"], queryFn: listAdminAudit, staleTime: 0 });
}
