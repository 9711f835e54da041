import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "./support/raw-http";
import { type ListeningApp, startListening } from "./support/server";

/**
 * Browser-side defence in depth on every answer (CSP, framing, referrer), and
 * cookies marked Secure behind a TLS proxy only when the operator trusts that proxy.
 */

/** Signs in a demo user over HTTP. @returns its bearer token. */
async function demoToken(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/demo-login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "id=demo",
  });
  return ((await response.json()) as { data: { token: string } }).data.token;
}

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | undefined): Map<string, string[]> {
  return new Map(
    (header ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("security headers", () => {
  let server: ListeningApp;

  beforeAll(async () => {
    server = await startListening();
  });
  afterAll(() => server.dispose());

  it.each(["/api/payment/pricing", "/login", "/api/nowhere"])("%s carries a strict CSP", async (target) => {
    const response = await rawRequest(server.url, "GET", target);
    const csp = directives(response.headers["content-security-policy"]);
    expect(csp.get("script-src")).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("cookies behind a TLS proxy", () => {
  let trusted: ListeningApp;
  let untrusted: ListeningApp;

  beforeAll(async () => {
    [trusted, untrusted] = await Promise.all([
      startListening({ env: { TRUST_PROXY: "127.0.0.1" } }),
      startListening(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([trusted.dispose(), untrusted.dispose()]);
  });

  const contentCookie = async (server: ListeningApp, forwarded: Record<string, string>) => {
    const token = await demoToken(server.url);
    const response = await rawRequest(server.url, "GET", "/api/users/profile/", {
      headers: { authorization: `Bearer ${token}`, ...forwarded },
    });
    expect(response.status).toBe(200);
    return (response.headers["set-cookie"] ?? "").split("\n").find((c) => c.startsWith("chat_content="));
  };

  it("marks the content cookie Secure when a trusted proxy says the client used https", async () => {
    const cookie = await contentCookie(trusted, { "x-forwarded-proto": "https" });
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
  });

  it("ignores X-Forwarded-Proto from a client when no proxy is trusted", async () => {
    const cookie = await contentCookie(untrusted, { "x-forwarded-proto": "https" });
    expect(cookie).toBeDefined();
    expect(cookie).not.toMatch(/;\s*Secure/i);
  });
});
