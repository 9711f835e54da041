import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createPkce, createState, OAuthClient, type OAuthClientConfig } from "./oauth";

describe("OAuthClient through openid-client", () => {
  const provider = new OAuth2Server();
  let issuer = "";
  /** Claims put into the next ID tokens (the access token has no `aud` and is left alone). */
  let idTokenClaims: Record<string, unknown> = {};
  /** Whether the token endpoint leaves the ID token out of its answer. */
  let dropIdToken = false;
  beforeAll(async () => {
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    issuer = provider.issuer.url!;
    provider.service.on("beforeUserinfo", (response: { body: unknown }) => {
      response.body = { sub: "subject-1", email: " Fan@Example.com ", email_verified: "true", name: "Fan" };
    });
    provider.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
      if (token.payload.aud !== undefined) Object.assign(token.payload, idTokenClaims);
    });
    provider.service.on("beforeResponse", (response: { body: Record<string, unknown> }) => {
      if (dropIdToken) delete response.body.id_token;
    });
  });
  afterEach(() => {
    idTokenClaims = {};
    dropIdToken = false;
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await provider.stop();
  });

  const settings = (overrides: Partial<OAuthClientConfig> = {}): OAuthClientConfig => ({
    authorizeUrl: `${issuer}/authorize`,
    tokenUrl: `${issuer}/token`,
    userInfoUrl: `${issuer}/userinfo`,
    clientId: "companion-client",
    clientSecret: "companion-secret",
    redirectUri: "http://companion.test/login/youtube",
    scope: "openid email profile",
    ...overrides,
  });

  /** Plays the browser up to the provider's redirect back; resolves the identity (or its error). */
  async function signIn(client: OAuthClient, iss?: string) {
    const state = createState();
    const pkce = await createPkce();
    const back = await fetch(client.authorizationUrl(state, pkce.challenge), { redirect: "manual" });
    const code = new URL(back.headers.get("location")!).searchParams.get("code")!;
    return client.identify({ code, state, iss }, pkce.verifier);
  }

  /** Why `attempt` failed: the messages of the error and of its causes, joined; "" when it succeeded. */
  async function failure(attempt: Promise<unknown>): Promise<string> {
    try {
      await attempt;
      return "";
    } catch (error) {
      const messages: string[] = [];
      for (let e: unknown = error; e instanceof Error; e = e.cause) messages.push(e.message);
      return messages.join(" / ");
    }
  }

  /** The URLs the client fetched, in order. */
  const fetched = () => {
    const spy = vi.spyOn(globalThis, "fetch");
    return () => spy.mock.calls.map(([url]) => String(url));
  };

  it("offers sign-in only with a client id and https endpoints (plain http on loopback only)", () => {
    expect(new OAuthClient(settings()).configured).toBe(true);
    expect(new OAuthClient(settings({ clientId: "" })).configured).toBe(false);
    const google = settings({
      authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
      tokenUrl: "https://oauth2.googleapis.com/token",
      userInfoUrl: "https://openidconnect.googleapis.com/v1/userinfo",
    });
    expect(new OAuthClient(google).configured).toBe(true);
    expect(new OAuthClient({ ...google, tokenUrl: "http://oauth2.googleapis.com/token" }).configured).toBe(
      false,
    );
    expect(new OAuthClient({ ...google, userInfoUrl: "not a url" }).configured).toBe(false);
  });

  it("builds the authorization URL on the configured endpoint with state and an S256 challenge", async () => {
    const pkce = await createPkce();
    expect(pkce.verifier).toMatch(/^[\w-]{43}$/);
    const url = new URL(new OAuthClient(settings()).authorizationUrl("the-state", pkce.challenge));
    expect(url.origin + url.pathname).toBe(`${issuer}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "companion-client",
      response_type: "code",
      redirect_uri: "http://companion.test/login/youtube",
      scope: "openid email profile",
      state: "the-state",
      code_challenge: pkce.challenge,
      code_challenge_method: "S256",
    });
  });

  it("reads the identity from the userinfo endpoint", async () => {
    await expect(signIn(new OAuthClient(settings()))).resolves.toEqual({
      subject: "subject-1",
      email: "fan@example.com",
      emailVerified: true,
      name: "Fan",
    });
  });

  it("reads the issuer's discovery document once, and again only after a day", async () => {
    let now = 1_000_000;
    const client = new OAuthClient(settings(), () => now);
    const urls = fetched();
    await signIn(client);
    await signIn(client);
    const discovery = `${issuer}/.well-known/openid-configuration`;
    expect(urls().filter((url) => url === discovery)).toHaveLength(1);
    now += 24 * 60 * 60_000;
    await signIn(client);
    expect(urls().filter((url) => url === discovery)).toHaveLength(2);
  });

  it("refuses an ID token of another issuer, of another client, or none at all", async () => {
    const client = new OAuthClient(settings());
    idTokenClaims = { iss: "https://accounts.evil.example" };
    expect(await failure(signIn(client))).toMatch(/unexpected JWT "iss" \(issuer\) claim value/);
    idTokenClaims = { aud: "someone-elses-client" };
    expect(await failure(signIn(client))).toMatch(/unexpected JWT "aud" \(audience\) claim value/);
    idTokenClaims = {};
    dropIdToken = true;
    expect(await failure(signIn(client))).toMatch(/id_token/);
  });

  it("refuses a callback naming another issuer, and takes one naming this one (RFC 9207)", async () => {
    const client = new OAuthClient(settings());
    expect(await failure(signIn(client, "https://accounts.evil.example"))).toMatch(
      /unexpected "iss" \(issuer\) response parameter value/,
    );
    await expect(signIn(client, issuer)).resolves.toMatchObject({ subject: "subject-1" });
  });

  it("speaks plain OAuth 2.0 without discovery when the provider has no issuer", async () => {
    const client = new OAuthClient(settings({ issuer: "", scope: "read:user" }));
    const urls = fetched();
    dropIdToken = true;
    await expect(signIn(client)).resolves.toMatchObject({ subject: "subject-1" });
    expect(urls().some((url) => url.includes("/.well-known/"))).toBe(false);
  });

  it("reads the discovery document again on the next sign-in after it failed", async () => {
    // No document under this issuer: the provider answers 404.
    const client = new OAuthClient(settings({ issuer: `${issuer}/elsewhere` }));
    await expect(signIn(client)).rejects.toThrow();
    const urls = fetched();
    await expect(signIn(client)).rejects.toThrow();
    expect(urls().filter((url) => url.includes("/.well-known/"))).toHaveLength(1);
  });
});
