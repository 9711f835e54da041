// The response envelope (product.md §3): building success and failure bodies, and the status and body any thrown value answers.
import type { Envelope, FailBody } from "../../common/api";
import { codeForStatus, ERROR_STATUS, type ErrorCode } from "../../common/errors";
import { AppError } from "../errors";
import { classifyOutage, outageBody } from "./outages";

/** Builds the spec's success envelope `{ success: 1, message, page?, data? }` (product.md §3). */
export function ok<T>(message: string, extra: { data?: T; page?: string } = {}): Envelope<T> {
  return { success: 1, message, ...extra };
}

/** The failure envelope (product.md §3): what every refusal answers, stream errors included. */
export type { FailBody } from "../../common/api";

/** Builds the failure envelope `{ success: 0, message, code, page? }` (product.md §3). */
export function fail(message: string, code: ErrorCode, page?: string): FailBody {
  return page ? { success: 0, message, code, page } : { success: 0, message, code };
}

/** What users are shown for an error of ours that is not theirs to fix. */
export const INTERNAL_MESSAGE = "Something went wrong on our side. Please try again.";

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
  if (error instanceof AppError) return fail(error.message, error.code, error.page);
  const status = failStatus(error);
  if (status >= 500) {
    const outage = classifyOutage(error);
    return outage ? outageBody(outage) : fail(INTERNAL_MESSAGE, "internal");
  }
  const message = error instanceof Error && error.message ? error.message : "Invalid request.";
  return fail(message, codeForStatus(status));
}
