// The pricing page's plans (GET /payment/pricing) as a query; a load failure is only logged (product.md §8).
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { listPricingPlans, type PricingPlan } from "../../../api/public";

/**
 * The pricing page's plans (GET /payment/pricing, `data` = PricingPlan[]). product.md §8: a load
 * failure is only logged (the query client logs it; `silent` keeps it from showing a toast).
 */
export function usePricingPlans(): UseQueryResult<PricingPlan[]> {
  return useQuery({ queryKey: ["pricing"], queryFn: listPricingPlans, meta: { silent: true } });
}
