// The plan panel's payment buttons: asking the server for a hosted payment page (add-on checkout, portal) and going there.
import { type UseMutationResult, useMutation } from "@tanstack/react-query";

/**
 * The plan panel's payment buttons: `start` asks the server for a hosted payment
 * page's address (the add-on's Stripe Checkout, or the Customer Portal where the subscription is
 * managed or cancelled; product.md §9) and the browser is sent there. A refusal (`ApiError` with the
 * server's message) shows as a warning toast (product.md §8). The pricing page's Subscribe has its own
 * useStartCheckout: a hook shared by both areas costs the pricing route a chunk of its own.
 */
export function usePaymentPage<V = void>(
  start: (input: V) => Promise<string>,
): UseMutationResult<string, Error, V> {
  return useMutation({
    mutationFn: start,
    onSuccess: (url) => window.location.assign(url),
  });
}
