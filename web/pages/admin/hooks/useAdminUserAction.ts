// An admin action on one user (plan, limits, block, reset the count) as a mutation.
import type { UseMutationResult } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { runUserAction, type UserAction } from "../../../api/admin";
import { useReloadingMutation } from "./adminQueries";

/** Changes a user's plan or limits, blocks or unblocks, or resets the count (admin console). */
export function useAdminUserAction(): UseMutationResult<Envelope, Error, UserAction> {
  return useReloadingMutation(runUserAction, [["admin"]]);
}
