import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { startPlanCheckout } from "../../../api/payments";

/**
 * Subscribes to a monthly plan (issue 9): asks the server for a Stripe Checkout page and sends
 * the browser there. A refusal shows the server's message as a warning toast (spec 8).
 */
export function useStartCheckout(): UseMutationResult<string, Error, string> {
  return useMutation({
    mutationFn: startPlanCheckout,
    onSuccess: (url) => window.location.assign(url),
  });
}
