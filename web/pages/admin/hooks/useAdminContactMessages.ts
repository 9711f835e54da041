// The admin console's contact messages as a query.
import type { UseQueryResult } from "@tanstack/react-query";
import { type AdminContactMessage, listAdminContactMessages } from "../../../api/admin";
import { useAdminQuery } from "./adminQueries";

/** Messages sent through the contact form, newest first (admin console). */
export function useAdminContactMessages(): UseQueryResult<AdminContactMessage[]> {
  return useAdminQuery(["admin", "contact"], listAdminContactMessages);
}
