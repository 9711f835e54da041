import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { getPaymentOptions, type PaymentOptions } from "../../../api/payments";

/**
 * What the signed-in user can buy here (GET /payment/options, issue 16): only fetched when
 * `signedIn`; silent (a failure only hides the offers). The pricing page has its own copy: a hook
 * shared by both areas costs the pricing route a chunk of its own (see usePaymentPage).
 */
export function usePaymentOptions(signedIn: boolean): UseQueryResult<PaymentOptions> {
  return useQuery({
    queryKey: ["payment-options"],
    queryFn: getPaymentOptions,
    enabled: signedIn,
    meta: { silent: true },
  });
}
