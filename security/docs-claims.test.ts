import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * What the security documentation (docs/security.md, linked from the README) promises an operator
 * about where protection state lives must be what the code does: an operator sizing a cluster
 * reads it, not the code.
 */
const securityDoc = fs.readFileSync(path.resolve(import.meta.dirname, "../docs/security.md"), "utf8");

/** The docs/security.md bullet that starts with `**<title>`, up to the next bullet. */
function bullet(title: string): string {
  const start = securityDoc.indexOf(`- **${title}`);
  if (start < 0) throw new Error(`docs/security.md has no "${title}" bullet`);
  const next = securityDoc.indexOf("\n- ", start + 1);
  return securityDoc.slice(start, next < 0 ? undefined : next).replace(/\s+/g, " ");
}

describe("docs/security.md matches the code", () => {
  it("says rate-limit counters are shared in Redis when REDIS_URL is set (server/http/rate-limit.ts)", () => {
    const text = bullet("Rate limits**");
    expect(text).toMatch(/in Redis when `REDIS_URL` is set/);
    expect(text).not.toMatch(/in memory per process today/);
    // The code it describes: a Redis store for @fastify/rate-limit (rate-limiter-flexible's RateLimiterRedis).
    const code = fs.readFileSync(path.resolve(import.meta.dirname, "../server/http/rate-limit.ts"), "utf8");
    expect(code).toMatch(/rate-limiter-flexible/);
    expect(code).toMatch(/RateLimiterRedis/);
    expect(code).toMatch(/redis/i);
  });
});
