/**
 * The one error type of the server: a stable code, an HTTP status and the message the user is
 * shown. The error handler in server/app.ts turns it into the spec's envelope.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    /** A page the SPA should open next (spec 3: the envelope's `page`). */
    readonly page?: string,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** 400: the request is malformed or a field breaks a rule. */
export const badRequest = (message: string, code = "bad_request") => new AppError(code, 400, message);
/** 401: no valid session; the SPA logs out (spec 8). */
export const unauthorized = (message = "Session expired, please login again.") =>
  new AppError("unauthorized", 401, message);
/** 403: signed in but not allowed (e.g. a plan flag). */
export const forbidden = (message: string, code = "forbidden") => new AppError(code, 403, message);
/**
 * 404: unknown id, or an id that belongs to someone else. Both answer the same so that ids of
 * other users cannot be probed.
 */
export const notFound = (message = "Not found.", code = "not_found") => new AppError(code, 404, message);
/** 429: a quota or rate limit is reached. */
export const tooMany = (message: string, code = "rate_limit", page?: string) =>
  new AppError(code, 429, message, page);
