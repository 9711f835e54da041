// The OAuth 2.0 authorization-code flow with PKCE against one configurable provider (Google for YouTube), over plain fetch.
import { createHash, randomBytes } from "node:crypto";
import { fetchWithTimeout } from "../http";

/** Endpoints and client of an OAuth 2.0 authorization-code provider (configurable). */
export interface OAuthClientConfig {
  authorizeUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scope: string;
}

/** Who the provider says signed in: its stable subject id, and e-mail/name when shared. */
export interface OAuthIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

/** A fresh PKCE pair (RFC 7636, S256). */
export function createPkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  return { verifier, challenge };
}

/**
 * The OAuth 2.0 authorization-code flow with PKCE against one provider (Google for YouTube).
 * Plain HTTP through fetch: the protocol is three small requests.
 */
export class OAuthClient {
  constructor(private readonly config: OAuthClientConfig) {}

  get configured(): boolean {
    return Boolean(this.config.clientId && this.config.authorizeUrl && this.config.tokenUrl);
  }

  /** The provider's authorization URL for this state and PKCE challenge. */
  authorizationUrl(state: string, challenge: string): string {
    const url = new URL(this.config.authorizeUrl);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", this.config.clientId);
    url.searchParams.set("redirect_uri", this.config.redirectUri);
    url.searchParams.set("scope", this.config.scope);
    url.searchParams.set("state", state);
    url.searchParams.set("code_challenge", challenge);
    url.searchParams.set("code_challenge_method", "S256");
    return url.toString();
  }

  /**
   * Exchanges the authorization code (with the PKCE verifier) for an access token, then reads the
   * user's identity from the userinfo endpoint.
   * @throws Error with the provider's error when the code is refused or the answer is malformed;
   *   ProviderHttpError when an endpoint cannot be reached within 10 s.
   */
  async identify(code: string, verifier: string): Promise<OAuthIdentity> {
    const tokenResponse = await fetchWithTimeout(this.config.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: this.config.redirectUri,
        client_id: this.config.clientId,
        client_secret: this.config.clientSecret,
        code_verifier: verifier,
      }),
      timeoutMs: 10_000,
    });
    const token = (await tokenResponse.json().catch(() => ({}))) as { access_token?: string; error?: string };
    if (!tokenResponse.ok || !token.access_token) {
      throw new Error(`token endpoint refused the code: ${token.error ?? tokenResponse.status}`);
    }
    const infoResponse = await fetchWithTimeout(this.config.userInfoUrl, {
      headers: { authorization: `Bearer ${token.access_token}`, accept: "application/json" },
      timeoutMs: 10_000,
    });
    const info = (await infoResponse.json().catch(() => ({}))) as {
      sub?: unknown;
      email?: unknown;
      email_verified?: unknown;
      name?: unknown;
    };
    if (!infoResponse.ok || typeof info.sub !== "string" || !info.sub) {
      throw new Error(`userinfo endpoint gave no subject (${infoResponse.status})`);
    }
    return {
      subject: info.sub,
      email: typeof info.email === "string" ? info.email.trim().toLowerCase() : "",
      emailVerified: info.email_verified === true || info.email_verified === "true",
      name: typeof info.name === "string" ? info.name.slice(0, 100) : "",
    };
  }
}
