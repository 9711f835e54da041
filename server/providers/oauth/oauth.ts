// The OAuth 2.0 / OpenID Connect authorization-code flow with PKCE against one configurable provider (Google for YouTube), through openid-client.
import * as oidc from "openid-client";
import { fetchWithTimeout } from "../http";

/** Endpoints and client of an OAuth 2.0 authorization-code provider (configurable). */
export interface OAuthClientConfig {
  authorizeUrl: string;
  tokenUrl: string;
  /** Where the identity is read with the access token; empty: from the ID token alone. */
  userInfoUrl: string;
  clientId: string;
  /** Empty for a public client (PKCE only). */
  clientSecret: string;
  redirectUri: string;
  scope: string;
  /**
   * The provider's OpenID Connect issuer identifier, e.g. `https://accounts.google.com`: its
   * discovery document (`/.well-known/openid-configuration`) names the issuer that the ID token's
   * `iss` and the callback's `iss` parameter must match. Undefined: the authorization endpoint's
   * origin when `scope` asks for `openid` (Google's issuer is the origin of its authorization
   * endpoint), none otherwise. "": a plain OAuth 2.0 provider without discovery (e.g. GitHub).
   */
  issuer?: string;
}

/** Who the provider says signed in: its stable subject id, and e-mail/name when shared. */
export interface OAuthIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

/** What the provider sent the browser back with (`/login/youtube?code&state[&iss]`). */
export interface OAuthCallbackParams {
  code: string;
  state: string;
  /** The issuer the provider names in its answer (RFC 9207); undefined when it sent none. */
  iss?: string | undefined;
}

/** Time limit of each request to the provider (discovery, token, userinfo), ms. */
const REQUEST_TIMEOUT_MS = 10_000;
/** How long a provider's discovered metadata is reused before it is read again, ms. */
const DISCOVERY_TTL_MS = 24 * 60 * 60_000;
/** Host names of this machine, the only ones the provider may be reached on over plain http. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A fresh, single-use `state` value: 32 random bytes, base64url (43 characters). */
export function createState(): string {
  return oidc.randomState();
}

/** A fresh PKCE pair (RFC 7636, S256): a 43-character verifier and its challenge. */
export async function createPkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = oidc.randomPKCECodeVerifier();
  return { verifier, challenge: await oidc.calculatePKCECodeChallenge(verifier) };
}

/** `text` as a URL; undefined when it is not one. */
function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** openid-client's requests, each aborted after REQUEST_TIMEOUT_MS (ProviderHttpError when unreachable). */
const providerFetch: oidc.CustomFetch = (url, options) =>
  // FetchBody is what fetch takes; only its Uint8Array typing differs from BodyInit's here.
  fetchWithTimeout(url, {
    ...options,
    body: options.body as BodyInit | undefined,
    timeoutMs: REQUEST_TIMEOUT_MS,
  });

/**
 * The OAuth 2.0 authorization-code flow with PKCE against one provider (Google for YouTube),
 * through openid-client: the authorization URL, the code exchange (which checks the state, the
 * RFC 9207 `iss` parameter and the ID token's `iss`, `aud`, `exp` and `iat`), and the userinfo.
 * The configured endpoints are always the ones called; the issuer's discovery document, read
 * once a day at most, only tells who the issuer is and what it supports.
 */
export class OAuthClient {
  private endpoints: oidc.Configuration | undefined;
  private discovered: { at: number; configuration: Promise<oidc.Configuration> } | undefined;

  /** @param now the clock (epoch ms) that ages the discovered metadata. */
  constructor(
    private readonly config: OAuthClientConfig,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether sign-in can be offered: a client id and the authorization and token endpoints are
   * set, and every URL of the provider is https (or http on this machine's loopback address).
   */
  get configured(): boolean {
    return (
      Boolean(this.config.clientId && this.config.authorizeUrl && this.config.tokenUrl) &&
      this.urls() !== undefined
    );
  }

  /** The provider's authorization URL for this state and PKCE challenge (S256). */
  authorizationUrl(state: string, challenge: string): string {
    return oidc
      .buildAuthorizationUrl(this.endpointConfiguration(), {
        redirect_uri: this.config.redirectUri,
        scope: this.config.scope,
        state,
        code_challenge: challenge,
        code_challenge_method: "S256",
      })
      .toString();
  }

  /**
   * Exchanges the authorization code (with the PKCE verifier) for tokens, checking the answer
   * (and the ID token, required when the scope asks for `openid`), then reads the user's identity
   * from the userinfo endpoint (from the ID token when none is configured).
   * @param verifier the PKCE verifier stored with `params.state` when the sign-in started.
   * @throws Error (openid-client's ClientError, ResponseBodyError, AuthorizationResponseError…)
   *   when discovery fails, the `iss` parameter or the ID token names another issuer or client,
   *   the code is refused, or an answer is malformed; ProviderHttpError when an endpoint cannot
   *   be reached within 10 s.
   */
  async identify(params: OAuthCallbackParams, verifier: string): Promise<OAuthIdentity> {
    const configuration = await this.serverConfiguration();
    const callbackUrl = new URL(this.config.redirectUri);
    callbackUrl.searchParams.set("code", params.code);
    callbackUrl.searchParams.set("state", params.state);
    if (params.iss) callbackUrl.searchParams.set("iss", params.iss);
    const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: verifier,
      expectedState: params.state,
      idTokenExpected: this.openid,
    });
    // The subject is the userinfo's, as it always was: the ID token's `sub` is not compared with
    // it (the tests' fake provider signs every ID token for one fixed subject).
    const info = configuration.serverMetadata().userinfo_endpoint
      ? await oidc.fetchUserInfo(configuration, tokens.access_token, oidc.skipSubjectCheck)
      : tokens.claims();
    if (!info || typeof info.sub !== "string" || !info.sub) {
      throw new Error("the provider named no subject");
    }
    return {
      subject: info.sub,
      email: typeof info.email === "string" ? info.email.trim().toLowerCase() : "",
      emailVerified: info.email_verified === true || info.email_verified === "true",
      name: typeof info.name === "string" ? info.name.slice(0, 100) : "",
    };
  }

  /** Whether the scope asks for an OpenID Connect sign-in (an ID token comes with the code). */
  private get openid(): boolean {
    return this.config.scope.split(/\s+/).includes("openid");
  }

  /** The issuer whose discovery document is read; "" for a plain OAuth 2.0 provider. */
  private get issuer(): string {
    if (this.config.issuer !== undefined) return this.config.issuer;
    return this.openid ? new URL(this.config.authorizeUrl).origin : "";
  }

  /** The provider's URLs, parsed; undefined when one is not a URL openid-client may call. */
  private urls(): URL[] | undefined {
    const { authorizeUrl, tokenUrl, userInfoUrl, issuer } = this.config;
    const urls: URL[] = [];
    for (const text of [authorizeUrl, tokenUrl, userInfoUrl, issuer ?? ""]) {
      if (!text) continue;
      const url = parseUrl(text);
      const usable =
        url?.protocol === "https:" || (url?.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
      if (!url || !usable) return undefined;
      urls.push(url);
    }
    return urls;
  }

  /**
   * The configuration the calls use: the issuer's discovered metadata (cached for a day; a
   * failed discovery is tried again on the next sign-in) with the configured endpoints, or the
   * configured endpoints alone when the provider has no issuer.
   */
  private serverConfiguration(): Promise<oidc.Configuration> {
    const issuer = this.issuer;
    if (!issuer) return Promise.resolve(this.endpointConfiguration());
    const cached = this.discovered;
    if (cached && this.now() - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
    const configuration = this.discover(issuer);
    const entry = { at: this.now(), configuration };
    this.discovered = entry;
    configuration.catch(() => {
      if (this.discovered === entry) this.discovered = undefined;
    });
    return configuration;
  }

  private async discover(issuer: string): Promise<oidc.Configuration> {
    const found = await oidc.discovery(new URL(issuer), this.config.clientId, undefined, undefined, {
      [oidc.customFetch]: providerFetch,
      timeout: REQUEST_TIMEOUT_MS / 1000,
      execute: this.insecure ? [oidc.allowInsecureRequests] : [],
    });
    return this.configuration(found.serverMetadata());
  }

  /** The configured endpoints alone (built once): the authorization URL needs no discovery. */
  private endpointConfiguration(): oidc.Configuration {
    // ServerMetadata needs an issuer; the endpoint's origin stands in for one that is not discovered.
    this.endpoints ??= this.configuration({
      issuer: this.issuer || new URL(this.config.authorizeUrl).origin,
    });
    return this.endpoints;
  }

  /** An openid-client configuration of `server` with the configured endpoints, client and limits. */
  private configuration(server: oidc.ServerMetadata): oidc.Configuration {
    const { authorizeUrl, tokenUrl, userInfoUrl, clientId, clientSecret } = this.config;
    const configuration = new oidc.Configuration(
      {
        ...server,
        authorization_endpoint: authorizeUrl,
        token_endpoint: tokenUrl,
        userinfo_endpoint: userInfoUrl || server.userinfo_endpoint,
      },
      clientId,
      undefined,
      clientSecret ? oidc.ClientSecretPost(clientSecret) : oidc.None(),
    );
    configuration.timeout = REQUEST_TIMEOUT_MS / 1000;
    configuration[oidc.customFetch] = providerFetch;
    if (this.insecure) oidc.allowInsecureRequests(configuration);
    return configuration;
  }

  /**
   * openid-client refuses plain http. It is let through only when the provider runs on this
   * machine's loopback address (`configured` refuses any other http URL): the tests' fake
   * providers and a local development provider. Production providers are https.
   */
  private get insecure(): boolean {
    return (this.urls() ?? []).some((url) => url.protocol === "http:");
  }
}
