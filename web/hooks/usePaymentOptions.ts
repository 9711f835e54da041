// What the signed-in user can buy here (GET /payment/options), for the pricing page and the profile's plan panel.
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { getPaymentOptions, type PaymentOptions } from "../api/payments";

/**
 * What the signed-in user can buy here (GET /payment/options): only fetched when
 * `signedIn`; silent (a failure only hides the offers, product.md §8 "Pricing load failure"). One hook for
 * the pricing page and the profile's plan panel.
 */
export function usePaymentOptions(signedIn: boolean): UseQueryResult<PaymentOptions> {
  return useQuery({
    queryKey: ["payment-options"],
    queryFn: getPaymentOptions,
    enabled: signedIn,
    meta: { silent: true },
  });
}
