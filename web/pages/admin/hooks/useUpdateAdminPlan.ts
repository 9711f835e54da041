// Saving a plan and its new picture (admin console), then reloading the plans and the pricing page.
import { type UseMutationResult, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import { type PlanEdit, updateAdminPlan, uploadAdminPlanImage } from "../../../api/admin";

/**
 * Saves a plan (admin console), then its new picture when one was chosen; the plans
 * list and the pricing page are loaded again. Answers the last envelope.
 */
export function useUpdateAdminPlan(): UseMutationResult<
  Envelope,
  Error,
  { id: string; plan: PlanEdit; image?: File }
> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, plan, image }) => {
      const saved = await updateAdminPlan(id, plan);
      return image === undefined ? saved : uploadAdminPlanImage(id, image);
    },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ["admin"] });
      await queryClient.invalidateQueries({ queryKey: ["pricing"] });
    },
  });
}
