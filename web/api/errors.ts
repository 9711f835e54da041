// ApiError, the one error the API calls throw: its kind (envelope, network, session, maintenance), code, status and Retry-After.
import type { Envelope } from "../../common/api";
import type { ErrorCode } from "../../common/errors";

/**
 * Why an API call failed:
 * - `envelope`: the server answered `{success: 0, message, code}` (product.md §8: show `message`);
 * - `network`: no usable answer (offline, timeout, not JSON) (product.md §8: only logged);
 * - `session`: HTTP 401, already handled by the client (product.md §8: toast and redirect to /);
 * - `maintenance`: HTTP 503, already handled by the client (product.md §8: 'Oops...' dialog).
 */
export type ApiErrorKind = "envelope" | "network" | "session" | "maintenance";

/** A code of `common/errors.ts`, or one this bundle does not know yet (kept as a string). */
export type ApiErrorCode = ErrorCode | (string & {});

/** What an `ApiError` knows besides its message and kind. */
export interface ApiErrorDetails {
  /** The HTTP status, when an answer arrived. */
  status?: number;
  /**
   * The stable code of the failure envelope (the error contract), when the server sent one.
   * A server newer than this bundle may send a code not in `ErrorCode`; it is kept as sent (the
   * client does not ship the server's code table: it only compares against codes it acts on).
   */
  code?: ApiErrorCode;
  /** The in-app page the failure envelope points to (e.g. the pricing page), when there is one. */
  page?: string;
  /** The answer's `Retry-After`, seconds, when it was a 429 that sent one. */
  retryAfterSeconds?: number;
}

/**
 * The one error type thrown by `web/api/*`. `message` is the text to show for `envelope`;
 * programs decide from `code` (never from the wording), `status` and `page`.
 */
export class ApiError extends Error {
  readonly status?: number;
  readonly code?: ApiErrorCode;
  readonly page?: string;
  readonly retryAfterSeconds?: number;

  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    details: ApiErrorDetails = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = details.status;
    this.code = details.code;
    this.page = details.page;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }

  /**
   * The error of a failure envelope `{success: 0, message, code?, page?}` answered with HTTP
   * `status`: kind `envelope`, or `kind` when given (401/503). A `code` or `page` that is not a
   * non-empty string is left out. `retryAfterSeconds`: the answer's `Retry-After`, when read.
   */
  static fromEnvelope(
    envelope: Envelope | null,
    status: number | undefined,
    fallback: string,
    kind: ApiErrorKind = "envelope",
    retryAfterSeconds?: number,
  ): ApiError {
    const code: unknown = envelope?.code;
    const page: unknown = envelope?.page;
    return new ApiError(envelope?.message || fallback, kind, {
      status,
      code: typeof code === "string" && code !== "" ? code : undefined,
      page: typeof page === "string" && page !== "" ? page : undefined,
      retryAfterSeconds,
    });
  }

  /** True for 401 and 503: the client already told the user (toast or dialog), callers stay quiet. */
  get handled(): boolean {
    return this.kind === "session" || this.kind === "maintenance";
  }
}

/** True when `error` is an `ApiError` the client already answered (401 or 503, product.md §8). */
export function isHandledApiError(error: unknown): boolean {
  return error instanceof ApiError && error.handled;
}
