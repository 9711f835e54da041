import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { type PlanEdit, updateAdminPlan } from "../../../api/admin";

/** Saves a plan (admin console); the plans list and the pricing page are loaded again. */
export function useUpdateAdminPlan(): UseMutationResult<Envelope, Error, { id: string; plan: PlanEdit }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, plan }) => updateAdminPlan(id, plan),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["admin"] });
      await queryClient.invalidateQueries({ queryKey: ["pricing"] });
    },
  });
}
