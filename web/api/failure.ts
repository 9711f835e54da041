// Why a public form's request failed (handled, network, other), for the texts of product.md §8.
import { ApiError } from "./errors";

/**
 * Why a public form's request failed, for the texts of product.md §8:
 * - `handled`: HTTP 401 or 503, which the API client already answered (toast or dialog);
 * - `network`: no answer at all (offline, refused, aborted), e.g. 'Failed to send email.';
 * - `other`: an answer without a usable envelope (HTTP error page, not JSON), e.g.
 *   'Failed to start the free subsription process. Please try again.'.
 */
export type FailureKind = "handled" | "network" | "other";

/** Classifies an error thrown by `web/api/*` (see `FailureKind`). */
export function classifyFailure(error: unknown): FailureKind {
  if (!(error instanceof ApiError)) return "other";
  if (error.handled) return "handled";
  if (error.kind === "network" && error.status === undefined) return "network";
  return "other";
}
