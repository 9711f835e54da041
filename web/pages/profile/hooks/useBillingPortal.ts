import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { openBillingPortal } from "../../../api/payments";

/**
 * Opens the Stripe Customer Portal, where the subscription is managed or cancelled (issue 9;
 * spec 9: access lasts to the end of the billing cycle).
 */
export function useBillingPortal(): UseMutationResult<string, Error, void> {
  return useMutation({
    mutationFn: () => openBillingPortal(),
    onSuccess: (url) => window.location.assign(url),
  });
}
