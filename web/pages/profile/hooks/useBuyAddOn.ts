import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { startAddOnCheckout } from "../../../api/payments";

/** Buys the add-on (spec 9: 100 messages for $1.99) through a Stripe Checkout page (issue 9). */
export function useBuyAddOn(): UseMutationResult<string, Error, void> {
  return useMutation({
    mutationFn: () => startAddOnCheckout(),
    onSuccess: (url) => window.location.assign(url),
  });
}
