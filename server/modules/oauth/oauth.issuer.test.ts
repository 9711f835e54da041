import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/server";

/**
 * What openid-client checks on the way back from the provider (OpenID Connect Core 3.1.3.7,
 * RFC 9207): an ID token issued by another issuer or for another client, or a callback naming
 * another issuer, is refused with the answer of a code the provider refused.
 */
describe("sign-in with YouTube checks who issued the answer and for whom", () => {
  let t: TestApp;
  const provider = new OAuth2Server();
  /** Changes the next ID tokens' claims (the access token, which has no `aud`, is left alone). */
  let idTokenClaims: Record<string, unknown> = {};
  beforeAll(async () => {
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    provider.service.on("beforeUserinfo", (response: { body: unknown }) => {
      response.body = { sub: "issuer-check-subject", email: "checked@example.com", email_verified: true };
    });
    provider.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
      if (token.payload.aud !== undefined) Object.assign(token.payload, idTokenClaims);
    });
    const issuer = provider.issuer.url!;
    t = await createTestApp({
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
  afterEach(() => {
    idTokenClaims = {};
  });
  afterAll(async () => {
    await t?.dispose();
    await provider.stop();
  });

  /** Our start, the provider's authorize page, then the SPA's callback post with `extra` fields. */
  async function signIn(extra: Record<string, string> = {}) {
    const start = await t.app.inject({ method: "GET", url: "/api/auth/oauth/youtube/start" });
    const cookie = String(start.headers["set-cookie"]).split(";")[0]!;
    const back = await fetch(start.headers.location as string, { redirect: "manual" });
    const callback = new URL(back.headers.get("location")!);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/youtube/callback",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      payload: new URLSearchParams({
        code: callback.searchParams.get("code")!,
        state: callback.searchParams.get("state")!,
        ...extra,
      }).toString(),
    });
    return { status: response.statusCode, body: response.json() as { success: number; message: string } };
  }

  const refused = { success: 0, message: "The sign-in was refused by the provider. Please try again." };

  it("signs in when the ID token and the callback's iss name this provider and this client", async () => {
    const res = await signIn({ iss: provider.issuer.url! });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(1);
  });

  it("refuses an ID token issued by another issuer", async () => {
    idTokenClaims = { iss: "https://accounts.evil.example" };
    const res = await signIn();
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(refused);
  });

  it("refuses an ID token issued for another client", async () => {
    idTokenClaims = { aud: "someone-elses-client" };
    const res = await signIn();
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(refused);
  });

  it("refuses a callback whose iss parameter names another issuer (RFC 9207)", async () => {
    const res = await signIn({ iss: "https://accounts.evil.example" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(refused);
  });
});
