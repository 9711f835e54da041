// The app's single React Query client, showing the server's message for a failed signed-in call (product.md §8).
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { warn } from "../lib/notify";
import { ApiError, isHandledApiError } from "./errors";

/**
 * Spec 8 for the signed-in area: an answer with success other than 1 shows the server's
 * message as a warning toast; a transport failure is only logged. Session (401) and
 * maintenance (503) errors were already handled by the API client. A query or mutation
 * can opt out with `meta: { silent: true }` (product.md §8: chat data load failures are only logged).
 */
function reportError(error: Error, meta: Record<string, unknown> | undefined): void {
  if (isHandledApiError(error)) return;
  console.error(error);
  if (meta?.silent === true) return;
  if (error instanceof ApiError && error.kind === "envelope") warn(error.message);
}

/** The app's single query client. Caches are cleared on logout. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => reportError(error, query.meta) }),
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => reportError(error, mutation.meta),
  }),
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});
