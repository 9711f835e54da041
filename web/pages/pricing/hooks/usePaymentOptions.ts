import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { getPaymentOptions, type PaymentOptions } from "../../../api/payments";

/**
 * What the signed-in user can buy here (GET /payment/options, issue 16): only fetched when
 * `signedIn`; silent (a failure only hides the add-on offer, spec 8 "Pricing load failure").
 */
export function usePaymentOptions(signedIn: boolean): UseQueryResult<PaymentOptions> {
  return useQuery({
    queryKey: ["payment-options"],
    queryFn: getPaymentOptions,
    enabled: signedIn,
    meta: { silent: true },
  });
}
