import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type AdminContactMessage, listAdminContactMessages } from "../../../api/admin";

/** Messages sent through the contact form, newest first (admin console). */
export function useAdminContactMessages(): UseQueryResult<AdminContactMessage[]> {
  return useQuery({ queryKey: ["admin", "contact"], queryFn: listAdminContactMessages, staleTime: 0 });
}
