// The server's browser-side defences and transport limits: body and upload bounds, timeouts, the Content-Security-Policy and security headers.
import type { IncomingHttpHeaders, IncomingMessage, ServerOptions, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import type { AppConfig } from "../env";
import { AppError, badRequest } from "../errors";
import { msg } from "../i18n/messages";

/** Largest JSON or form body, bytes (uploads are multipart and bounded below). */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Largest file in a multipart upload, bytes (photos, cards, recordings). */
export const UPLOAD_FILE_LIMIT_BYTES = 10 * 1024 * 1024;
/** Files in one multipart request. */
export const UPLOAD_MAX_FILES = 2;
/** Non-file fields in one multipart request (product.md §7's largest form has 8). */
export const UPLOAD_MAX_FIELDS = 30;
/** Largest whole multipart request: every file at its limit plus room for the fields, bytes. */
export const UPLOAD_REQUEST_LIMIT_BYTES = UPLOAD_MAX_FILES * UPLOAD_FILE_LIMIT_BYTES + BODY_LIMIT_BYTES;
/** RFC 2046 5.1.1: a multipart boundary is 1 to 70 characters. */
export const MAX_BOUNDARY_LENGTH = 70;

/**
 * Fastify's server options for the transport limits: a whole request must arrive
 * within HTTP_REQUEST_TIMEOUT_MS and its headers within HTTP_HEADERS_TIMEOUT_MS (Node answers 408
 * and closes), checked every second, so a client trickling a byte every few seconds is cut off;
 * `trustProxy` from TRUST_PROXY so `request.protocol` and `request.ip` come from the proxy's
 * X-Forwarded-* headers only when the operator says a proxy is in front.
 */
export function transportOptions(config: AppConfig): FastifyServerOptions & { http: ServerOptions } {
  const headersTimeout = Math.min(config.HTTP_HEADERS_TIMEOUT_MS, config.HTTP_REQUEST_TIMEOUT_MS);
  return {
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    // A hop count trusts that many proxies in front (Fastify takes it as a function in its types).
    trustProxy:
      typeof config.trustProxy === "number"
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    http: {
      headersTimeout,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
  };
}

/**
 * The single-page app's Content-Security-Policy. Scripts only from our origin (plus
 * WebAssembly compilation, which the voice-activity model's onnxruntime needs); images and media
 * from our origin, `data:` and `blob:` (photo previews, recordings); network calls only to our
 * origin; no plugins, no framing by other sites, forms and `<base>` only to our origin. Inline
 * styles are allowed because the toast, dialog and emoji libraries insert `<style>` elements;
 * inline scripts are not.
 */
export const CONTENT_SECURITY_POLICY = {
  "default-src": ["'self'"],
  "script-src": ["'self'", "'wasm-unsafe-eval'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:", "blob:"],
  "media-src": ["'self'", "data:", "blob:"],
  "font-src": ["'self'", "data:"],
  "connect-src": ["'self'"],
  "worker-src": ["'self'", "blob:"],
  "object-src": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
};

/**
 * Registers the browser-side defences and the early refusals of bad uploads:
 * - security headers by helmet (worked out once, `helmetHeaders`): the CSP above, `X-Frame-Options: DENY`,
 *   `Referrer-Policy: no-referrer`, `X-Content-Type-Options: nosniff`, and the rest of helmet's
 *   defaults (no `upgrade-insecure-requests`: a plain-HTTP install on a LAN must keep working);
 * - before any body is read: a declared `content-length` above the route's limit is 413, a
 *   multipart request without a boundary or with one longer than 70 characters is 400;
 * - a refusal sent before the body was read closes the connection, so the rest of a large body
 *   is never read.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const headers = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
  });
  const names = Object.keys(headers);
  // Callback hooks, not async ones: they run on every request (a promise each).
  app.addHook("onRequest", (request, reply, done) => {
    // On the raw response, as helmet does, so hijacked answers (event streams) carry them too.
    for (const name of names) reply.raw.setHeader(name, headers[name]!);
    done(uploadRefusal(request.headers));
  });

  // No text field may carry a NUL character: PostgreSQL refuses it in text, and no field of the
  // spec needs one. Refused as the client's mistake, on every route, before any handler runs.
  // preHandler, not preValidation: @fastify/multipart attaches multipart fields in its own
  // preValidation hook, registered after this one (a NUL in a multipart field reached
  // PostgreSQL and answered 500).
  app.addHook("preHandler", (request, _reply, done) => {
    if (hasNul(request.query) || hasNul(request.params) || hasNul(request.body)) {
      done(nulRefusal());
      return;
    }
    done();
  });

  app.addHook("onSend", (request, reply, payload, done) => {
    // Answered before the body arrived (a 401, a 413): do not read the rest of it.
    if (!request.raw.complete && !reply.hasHeader("connection")) reply.header("connection", "close");
    done(null, payload);
  });
}

/**
 * The refusal of a request by its headers alone, before any body is read: a declared
 * `content-length` over the limit (UPLOAD_REQUEST_LIMIT_BYTES for multipart, else
 * BODY_LIMIT_BYTES) is AppError 413; a multipart type without a boundary or with one longer than
 * MAX_BOUNDARY_LENGTH is 400 `bad_multipart`. @returns undefined when the headers are acceptable.
 */
function uploadRefusal(headers: IncomingHttpHeaders): AppError | undefined {
  const type = (headers["content-type"] ?? "").toLowerCase();
  const multipart = type.startsWith("multipart/");
  const declared = Number(headers["content-length"] ?? 0);
  const limit = multipart ? UPLOAD_REQUEST_LIMIT_BYTES : BODY_LIMIT_BYTES;
  if (declared > limit) {
    return new AppError(
      "payload_too_large",
      msg("http.requestTooLargeMostMb", { n: Math.round(limit / 1024 / 1024) }),
    );
  }
  if (multipart) {
    const boundary = /boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(headers["content-type"] ?? "");
    const value = boundary?.[1] ?? boundary?.[2] ?? "";
    if (!value || value.length > MAX_BOUNDARY_LENGTH) {
      return badRequest(msg("http.uploadMalformedBadMultipartBoundary"), "bad_multipart");
    }
  }
  return undefined;
}

/**
 * The headers helmet sets for `options`, worked out once (@fastify/helmet built helmet's
 * middleware again on every request, a fiftieth of a chat message's CPU). Our options hold no
 * per-request part (no CSP nonce), so every answer gets the same headers.
 * @returns header name (lower case) to value.
 * @throws Error if helmet did not finish synchronously (an option that needs the request).
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error("helmet did not set its headers synchronously");
  return headers;
}

/** The refusal of a field holding a NUL character (400 `bad_input`), here and in a route's validator. */
export const nulRefusal = () => badRequest(msg("http.requestContainsNulCharacter"), "bad_input");

/** Whether a parsed query, params or body (strings, arrays, objects; files skipped) holds "\u0000". */
export function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (depth > 8 || value === null || typeof value !== "object" || Buffer.isBuffer(value)) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes("\u0000") || hasNul(item, depth + 1)) return true;
  }
  return false;
}
