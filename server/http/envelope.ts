import type { Envelope } from "../../common/api";

/** Builds the spec's success envelope `{ success: 1, message, page?, data? }` (spec 3). */
export function ok<T>(message: string, extra: { data?: T; page?: string } = {}): Envelope<T> {
  return { success: 1, message, ...extra };
}

/** Builds the failure envelope `{ success: 0, message }` (spec 3). */
export function fail(message: string, page?: string): Envelope<never> {
  return page ? { success: 0, message, page } : { success: 0, message };
}
