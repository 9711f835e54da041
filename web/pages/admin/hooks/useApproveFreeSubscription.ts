// Approving a free-subscription request by hand (admin console) as a mutation.
import type { UseMutationResult } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { approveFreeSubscription } from "../../../api/admin";
import { useReloadingMutation } from "./adminQueries";

/** Approves a free-subscription request by hand (admin console, when the video check cannot run). */
export function useApproveFreeSubscription(): UseMutationResult<Envelope, Error, string> {
  return useReloadingMutation(approveFreeSubscription, [["admin"]]);
}
