// The server's one error type, AppError with a stable code and the user's message, and its helpers by HTTP status (400, 401, 403, 404, 429).
import { ERROR_STATUS, type ErrorCode } from "../common/errors";
import { english, type Message, msg } from "./i18n/messages";

/**
 * The one error type of the server: a stable code (common/errors.ts), the HTTP status derived from
 * it, and the message the user is shown. The error handler (server/http/setup.ts) turns it into
 * the spec's envelope through `failBody`. The message is a message value (`msg(id, params)`,
 * server/i18n/messages.ts), kept as `text` so the answer can be rendered in the request's
 * language; `message` is its English text. The helpers below take message values only; plain text
 * is accepted here for texts no catalogue holds (a framework's or a zod default's sentence), which
 * stay English.
 */
export class AppError extends Error {
  /** The HTTP status of this code (`ERROR_STATUS`). */
  readonly status: number;
  /** The message value, or the plain text it was given. */
  readonly text: string | Message;

  constructor(
    readonly code: ErrorCode,
    message: string | Message,
    /** A page the SPA should open next (product.md §3: the envelope's `page`). */
    readonly page?: string,
  ) {
    super(english(message));
    this.text = message;
    this.name = "AppError";
    this.status = ERROR_STATUS[code];
  }
}

/** 400: the request is malformed or a field breaks a rule. */
export const badRequest = (message: Message, code: ErrorCode = "bad_request") => new AppError(code, message);
/** 401: no valid session; the SPA logs out (product.md §8). */
export const unauthorized = (message: Message = msg("server.sessionExpiredLoginAgain")) =>
  new AppError("unauthorized", message);
/** 403: signed in but not allowed (e.g. a plan flag). */
export const forbidden = (message: Message, code: ErrorCode = "forbidden") => new AppError(code, message);
/**
 * 404: unknown id, or an id that belongs to someone else. Both answer the same so that ids of
 * other users cannot be probed.
 */
export const notFound = (message: Message = msg("server.notFound"), code: ErrorCode = "not_found") =>
  new AppError(code, message);
/** 429: a quota or rate limit is reached. */
export const tooMany = (message: Message, code: ErrorCode = "rate_limit", page?: string) =>
  new AppError(code, message, page);
