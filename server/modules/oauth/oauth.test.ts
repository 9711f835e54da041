import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

describeEachDatabase("sign-in with YouTube (OAuth 2.0 code flow with state and PKCE)", (dialect) => {
  let t: TestApp;
  const provider = new OAuth2Server();
  let userinfo: Record<string, unknown> = {};
  beforeAll(async () => {
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    provider.service.on("beforeUserinfo", (response: { body: unknown }) => {
      response.body = userinfo;
    });
    const issuer = provider.issuer.url!;
    t = await createTestApp({
      dialect,
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
    await t?.dispose();
    await provider.stop();
  });

  /**
   * Plays the browser: our start (which sets the binding cookie) → the provider's authorize page
   * → back with code and state.
   */
  async function authorize(): Promise<{ code: string; state: string; cookie: string; authorizeUrl: URL }> {
    const start = await t.app.inject({ method: "GET", url: "/api/auth/oauth/youtube/start" });
    expect(start.statusCode).toBe(302);
    const cookie = String(start.headers["set-cookie"]).split(";")[0]!;
    const authorizeUrl = new URL(start.headers.location as string);
    const back = await fetch(authorizeUrl, { redirect: "manual" });
    const callback = new URL(back.headers.get("location")!);
    expect(callback.origin + callback.pathname).toBe("http://companion.test/login/youtube");
    return {
      code: callback.searchParams.get("code")!,
      state: callback.searchParams.get("state")!,
      cookie,
      authorizeUrl,
    };
  }
  /** The SPA's callback post from the browser that started: it carries the binding cookie. */
  const finish = async (code: string, state: string, cookie: string) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/youtube/callback",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      payload: new URLSearchParams({ code, state }).toString(),
    });
    return {
      status: response.statusCode,
      body: response.json() as { success: number; message: string; page?: string; data?: unknown },
    };
  };

  it("tells the login screen that YouTube sign-in is configured", async () => {
    const res = await call(t.app, "GET", "/api/auth/oauth/platforms");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: 1, data: { platforms: ["youtube"] } });
  });

  it("sends the browser to the provider with state and an S256 PKCE challenge", async () => {
    const { authorizeUrl } = await authorize();
    expect(authorizeUrl.searchParams.get("client_id")).toBe("companion-client");
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizeUrl.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(authorizeUrl.searchParams.get("state")).toMatch(/^[\w-]{43}$/);
  });

  it("signs in a new person as their own account, and the same person again later", async () => {
    userinfo = { sub: "yt-subject-1", email: "fan@example.com", email_verified: true, name: "Fan One" };
    const first = await authorize();
    const res = await finish(first.code, first.state, first.cookie);
    expect(res.body).toMatchObject({ success: 1, page: "/characters/selection" });
    const userId = (res.body.data as { user: { id: string } }).user.id;
    const again = await authorize();
    const second = await finish(again.code, again.state, again.cookie);
    expect((second.body.data as { user: { id: string } }).user.id).toBe(userId);
  });

  it("refuses a replayed callback and a state it never issued", async () => {
    userinfo = { sub: "yt-subject-2" };
    const { code, state, cookie } = await authorize();
    expect((await finish(code, state, cookie)).body.success).toBe(1);
    const replay = await finish(code, state, cookie);
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe(
      "This sign-in attempt has expired or was already used. Please try again.",
    );
    const other = await authorize();
    const forged = await finish(other.code, "forged-state-value", other.cookie);
    expect(forged.status).toBe(400);
  });

  it("never merges into an existing account because the e-mail matches", async () => {
    const owner = await t.auth.createAccount({
      email: "owner@example.com",
      password: "owner-password",
      fullName: "Owner",
      planName: "Free",
    });
    userinfo = { sub: "yt-attacker", email: "owner@example.com", email_verified: true };
    const { code, state, cookie } = await authorize();
    const res = await finish(code, state, cookie);
    const user = (res.body.data as { user: { id: string } }).user;
    expect(user.id).not.toBe(owner.id);
  });

  it("refuses a code the provider rejects (wrong PKCE verifier)", async () => {
    userinfo = { sub: "yt-subject-3" };
    const a = await authorize();
    const b = await authorize();
    // b's state carries b's verifier, which does not match a's code challenge.
    const res = await finish(a.code, b.state, b.cookie);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("The sign-in was refused by the provider. Please try again.");
  });

  it("answers 404 for an unknown platform", async () => {
    expect(
      (await call(t.app, "POST", "/api/vimeo/callback", { form: { code: "c", state: "s" } })).status,
    ).toBe(404);
  });
});

describeEachDatabase("sign-in platforms in a default install", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("offers no OAuth sign-in when none is configured, without a session", async () => {
    const res = await call(t.app, "GET", "/api/auth/oauth/platforms");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: 1, data: { platforms: [] } });
    expect((await call(t.app, "GET", "/api/auth/oauth/youtube/start")).status).toBe(400);
  });
});
