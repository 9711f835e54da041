// Localising an envelope's message by the request's language: the message value it carries, rendered by id.
import { carried, type Language, render } from "./messages";

export { LANGUAGES, type Language, TRANSLATED_LANGUAGES } from "./messages";

/**
 * Where a message takes the request's language. An envelope built from a message value (`ok`,
 * `okWith`, `fail`, `failBody` of an AppError, server/http/envelope.ts) carries that value
 * (server/i18n/messages.ts `carry`); just before the answer leaves (server/http/setup.ts, and each
 * event of a stream, server/http/sse.ts) it is rendered by its id in the request's language.
 */

/**
 * The envelope (or `error` event data) with its `message` in `language`: a shallow copy when the
 * value is an object with a string `message` and a `success` of 0 or 1 that carries the message
 * value whose English is that `message`; otherwise the value itself (English, plain text, or a
 * message changed after it was built). Other fields are never touched; never throws.
 */
export function localiseEnvelope<T>(value: T, language: Language): T {
  if (language === "en" || !isEnvelope(value)) return value;
  const own = carried(value);
  if (own === undefined || render(own) !== value.message) return value;
  const message = render(own, language);
  return message === value.message ? value : { ...value, message };
}

/** Whether a value is the spec's envelope: an object with `success` 0 or 1 and a string `message`. */
export function isEnvelope(value: unknown): value is { success: 0 | 1; message: string } {
  if (typeof value !== "object" || value === null) return false;
  const body = value as { success?: unknown; message?: unknown };
  return (body.success === 0 || body.success === 1) && typeof body.message === "string";
}
