// Sending the browser to Stripe Checkout for a monthly plan or the add-on (product.md §9).
import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { startAddOnCheckout, startPlanCheckout } from "../../../api/payments";

/**
 * Subscribes to a monthly plan: asks the server for a Stripe Checkout page and sends
 * the browser there. A refusal shows the server's message as a warning toast (product.md §8).
 */
export function useStartCheckout(): UseMutationResult<string, Error, string> {
  return useMutation({
    mutationFn: startPlanCheckout,
    onSuccess: (url) => window.location.assign(url),
  });
}

/** Buys the add-on (product.md §9: offered here at the monthly limit) through Stripe Checkout. */
export function useAddOnCheckout(): UseMutationResult<string, Error, void> {
  return useMutation({
    mutationFn: startAddOnCheckout,
    onSuccess: (url) => window.location.assign(url),
  });
}
