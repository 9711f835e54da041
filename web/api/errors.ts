/**
 * Why an API call failed:
 * - `envelope`: the server answered `{success: 0, message}` (spec 8: show `message`);
 * - `network`: no usable answer (offline, timeout, not JSON) (spec 8: only logged);
 * - `session`: HTTP 401, already handled by the client (spec 8: toast and redirect to /);
 * - `maintenance`: HTTP 503, already handled by the client (spec 8: 'Oops...' dialog).
 */
export type ApiErrorKind = "envelope" | "network" | "session" | "maintenance";

/** The one error type thrown by `web/api/*`. `message` is the text to show for `envelope`. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}
