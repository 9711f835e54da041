// The origin a request was made to (scheme, host and port), for links shown in the browser that asked.
import type { FastifyRequest } from "fastify";

/** A host as a browser sends it: a name or IPv4 address, or a bracketed IPv6 one, and an optional port. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin the browser used for this request, e.g. "http://192.168.1.5:3000": the Host header
 * and the connection's scheme, or X-Forwarded-Host and X-Forwarded-Proto when the proxy in front is
 * trusted (TRUST_PROXY; Fastify's `request.host` and `request.protocol` follow it). A link built on
 * it opens in the browser that asked, whatever name or address it used.
 * @returns "" when the host is missing or malformed (the caller then falls back to its default).
 */
export function requestOrigin(request: FastifyRequest): string {
  const host = request.host;
  if (!host || !HOST.test(host)) return "";
  return `${request.protocol === "https" ? "https" : "http"}://${host}`;
}
