import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { approveFreeSubscription } from "../../../api/admin";

/** Approves a free-subscription request by hand (admin console, when the video check cannot run). */
export function useApproveFreeSubscription(): UseMutationResult<Envelope, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveFreeSubscription,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["admin"] });
    },
  });
}
