// The response envelope (product.md §3): building success and failure bodies, and the status and body any thrown value answers.
import type { Envelope, FailBody } from "../../common/api";
import { codeForStatus, ERROR_STATUS, type ErrorCode } from "../../common/errors";
import { AppError } from "../errors";
import { carry, english, type Message, msg } from "../i18n/messages";
import { classifyOutage, outageBody } from "./outages";

/**
 * Builds the spec's success envelope `{ success: 1, message, page?, data? }` (product.md §3): the
 * message's English text, the message value carried along for the request's language
 * (server/i18n/messages.ts `carry`).
 */
export function ok<T>(message: string | Message, extra: { data?: T; page?: string } = {}): Envelope<T> {
  return carry({ success: 1, message: english(message), ...extra }, message);
}

/**
 * `ok` with fields of its own beside `success` and `message` (`{ success: 1, message, ...fields }`,
 * e.g. `history` of an edit), the message value carried like `ok`'s.
 */
export function okWith<F extends object>(
  message: string | Message,
  fields: F,
): { success: 1; message: string } & F {
  return carry({ success: 1 as const, message: english(message), ...fields }, message);
}

/** The failure envelope (product.md §3): what every refusal answers, stream errors included. */
export type { FailBody } from "../../common/api";

/**
 * Builds the failure envelope `{ success: 0, message, code, page? }` (product.md §3): the message's
 * English text, the message value carried along for the request's language.
 */
export function fail(message: string | Message, code: ErrorCode, page?: string): FailBody {
  const text = english(message);
  return carry(
    page ? { success: 0, message: text, code, page } : { success: 0, message: text, code },
    message,
  );
}

/** What users are shown for an error of ours that is not theirs to fix. */
export const INTERNAL_MESSAGE = msg("http.somethingWentWrongOurSide");

/**
 * The HTTP status a thrown value answers: an AppError's own (derived from its code), a framework
 * error's `statusCode` when it is a client error (e.g. 415 for an unknown content type), 503 for
 * an outage of the database, Redis or the storage (server/http/outages.ts), otherwise 500.
 */
export function failStatus(error: unknown): number {
  if (error instanceof AppError) return error.status;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) return status;
  const outage = classifyOutage(error);
  return outage ? ERROR_STATUS[outage.code] : 500;
}

/**
 * The failure envelope of any thrown value: an AppError answers its message, code and page; a
 * framework error below 500 its own message and the code of its status family; an outage the
 * outage sentence and its engine's code (e.g. "storage_unavailable"); anything else the internal
 * message with code "internal" (the details stay in the log, never on the wire).
 * Used by the error handler and by the `error` event of reply streams.
 */
export function failBody(error: unknown): FailBody {
  if (error instanceof AppError) return fail(error.text, error.code, error.page);
  const status = failStatus(error);
  if (status >= 500) {
    const outage = classifyOutage(error);
    return outage ? outageBody(outage) : fail(INTERNAL_MESSAGE, "internal");
  }
  const message = error instanceof Error && error.message ? error.message : msg("http.invalidRequest");
  return fail(message, codeForStatus(status));
}
