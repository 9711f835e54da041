// Who may read GET /metrics: off, a bearer token, or by default only loopback and private addresses.
import crypto from "node:crypto";
import net from "node:net";
import type { FastifyRequest } from "fastify";

/**
 * Who may read GET /metrics: `enabled` false serves no route at all; a `token` is
 * then required of every caller (`Authorization: Bearer <token>`); without a token only
 * loopback and private addresses are answered. Defaults (nothing configured): enabled, loopback
 * and private addresses only. Read from METRICS_ENABLED and METRICS_TOKEN in server/env.ts.
 */
export interface MetricsOptions {
  enabled: boolean;
  token: string;
}

export const DEFAULT_METRICS_OPTIONS: MetricsOptions = { enabled: true, token: "" };

/**
 * Loopback (127.0.0.0/8, ::1), private (10/8, 172.16/12, 192.168/16, IPv6 unique local fc00::/7)
 * and link-local (169.254/16, fe80::/10) ranges: addresses that cannot come straight from the
 * internet. Behind a proxy, `request.ip` is the client's own address only with TRUST_PROXY set;
 * without it every request seems to come from the proxy, so forwarded requests are refused (see
 * mayReadMetrics); set METRICS_TOKEN or TRUST_PROXY there.
 */
const PRIVATE_RANGES = new net.BlockList();
PRIVATE_RANGES.addSubnet("127.0.0.0", 8, "ipv4");
PRIVATE_RANGES.addSubnet("10.0.0.0", 8, "ipv4");
PRIVATE_RANGES.addSubnet("172.16.0.0", 12, "ipv4");
PRIVATE_RANGES.addSubnet("192.168.0.0", 16, "ipv4");
PRIVATE_RANGES.addSubnet("169.254.0.0", 16, "ipv4");
PRIVATE_RANGES.addAddress("::1", "ipv6");
PRIVATE_RANGES.addSubnet("fc00::", 7, "ipv6");
PRIVATE_RANGES.addSubnet("fe80::", 10, "ipv6");

/** Whether `ip` (as Fastify gives it, IPv4-mapped IPv6 included) is loopback, private or link-local. */
export function isPrivateAddress(ip: string): boolean {
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  if (net.isIPv4(v4)) return PRIVATE_RANGES.check(v4, "ipv4");
  if (net.isIPv6(ip)) return PRIVATE_RANGES.check(ip, "ipv6");
  return false;
}

/**
 * Whether this request may read the metrics under `options` (see MetricsOptions). Without a token,
 * a request that came through a proxy this server does not trust (X-Forwarded-For or Forwarded
 * present, yet `request.ip` is the proxy's own address) is refused: its client is unknown and may
 * be anywhere on the internet.
 */
export function mayReadMetrics(request: FastifyRequest, options: MetricsOptions): boolean {
  if (!options.token) {
    const forwarded =
      request.headers["x-forwarded-for"] !== undefined || request.headers.forwarded !== undefined;
    const proxyUntrusted = forwarded && request.ip === request.socket.remoteAddress;
    return !proxyUntrusted && isPrivateAddress(request.ip);
  }
  const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? "";
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(options.token).digest();
  return crypto.timingSafeEqual(a, b);
}
