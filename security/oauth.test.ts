import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../server/testing/server";
import { type ListeningApp, startListening } from "./support/server";

/**
 * Login CSRF in "Sign in with YouTube". A `state` fetched by one client must not
 * complete a sign-in posted by another: the state is bound to the browser that started the flow
 * by a short-lived HttpOnly cookie, checked on the callback and used once.
 */
describe("OAuth sign-in is bound to the browser that started it", () => {
  let server: ListeningApp;
  const provider = new OAuth2Server();
  beforeAll(async () => {
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    provider.service.on("beforeUserinfo", (response: { body: unknown }) => {
      response.body = { sub: "attacker-subject", email: "attacker@example.com", email_verified: true };
    });
    const issuer = provider.issuer.url!;
    server = await startListening({
      env: {
        PUBLIC_URL: "http://companion.test",
        OAUTH_YOUTUBE_CLIENT_ID: "companion-client",
        OAUTH_YOUTUBE_CLIENT_SECRET: "companion-secret",
        OAUTH_YOUTUBE_AUTHORIZE_URL: `${issuer}/authorize`,
        OAUTH_YOUTUBE_TOKEN_URL: `${issuer}/token`,
        OAUTH_YOUTUBE_USERINFO_URL: `${issuer}/userinfo`,
      },
    });
  });
  afterAll(async () => {
    await server?.dispose();
    await provider.stop();
  });

  /** One browser's start: its cookie (name=value) and the provider's answer (code, state). */
  async function startFlow(): Promise<{ cookie: string; setCookie: string; code: string; state: string }> {
    const start = await fetch(`${server.url}/api/auth/oauth/youtube/start`, { redirect: "manual" });
    expect(start.status).toBe(302);
    const setCookie = start.headers.get("set-cookie") ?? "";
    const back = await fetch(start.headers.get("location")!, { redirect: "manual" });
    const callback = new URL(back.headers.get("location")!);
    return {
      cookie: setCookie.split(";")[0] ?? "",
      setCookie,
      code: callback.searchParams.get("code")!,
      state: callback.searchParams.get("state")!,
    };
  }

  const post = (code: string, state: string, cookie?: string) =>
    fetch(`${server.url}/api/youtube/callback`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams({ code, state }),
    });

  it("sets a 10-minute HttpOnly, SameSite=Lax cookie scoped to /api/ when the flow starts", async () => {
    const { setCookie } = await startFlow();
    expect(setCookie).toMatch(/^oauth_binding=[\w-]{43};/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Path=\/api\//);
    expect(setCookie).toMatch(/; Max-Age=600/);
    // Plain HTTP here: no Secure flag (it is added behind https).
    expect(setCookie).not.toMatch(/Secure/);
  });

  it("marks the cookie Secure behind a trusted TLS proxy", async () => {
    const behindProxy = await createTestApp({
      env: {
        TRUST_PROXY: "true",
        OAUTH_YOUTUBE_CLIENT_ID: "companion-client",
        OAUTH_YOUTUBE_AUTHORIZE_URL: `${provider.issuer.url}/authorize`,
        OAUTH_YOUTUBE_TOKEN_URL: `${provider.issuer.url}/token`,
      },
    });
    try {
      const start = await behindProxy.app.inject({
        method: "GET",
        url: "/api/auth/oauth/youtube/start",
        headers: { "x-forwarded-proto": "https" },
      });
      expect(String(start.headers["set-cookie"])).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
    } finally {
      await behindProxy.dispose();
    }
  });

  it("refuses the attacker's code and state posted by a victim's browser without the cookie", async () => {
    const attacker = await startFlow();
    const answer = await post(attacker.code, attacker.state);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { message: string }).message).toBe(
      "This sign-in was started in another browser or has expired. Please start again.",
    );
  });

  it("refuses them when the victim's browser holds the cookie of its own, other flow", async () => {
    const attacker = await startFlow();
    const victim = await startFlow();
    const answer = await post(attacker.code, attacker.state, victim.cookie);
    expect(answer.status).toBe(400);
    // The victim's own flow was not spoiled by the attempt.
    expect((await post(victim.code, victim.state, victim.cookie)).status).toBe(200);
  });

  it("signs in the browser that started, clears the cookie, and refuses a replay", async () => {
    const flow = await startFlow();
    const answer = await post(flow.code, flow.state, flow.cookie);
    expect(((await answer.json()) as { success: number }).success).toBe(1);
    expect(answer.headers.get("set-cookie")).toMatch(/^oauth_binding=; .*Max-Age=0/);
    const replay = await post(flow.code, flow.state, flow.cookie);
    expect(replay.status).toBe(400);
  });
});
