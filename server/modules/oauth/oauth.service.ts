// Sign-in with a video platform account (product.md §7) through OAuth 2.0 with state and PKCE, keyed on the provider's subject id.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { User } from "../../db/schema";
import { AppError, badRequest } from "../../errors";
import { msg } from "../../i18n/messages";
import {
  createPkce,
  createState,
  type OAuthCallbackParams,
  type OAuthClient,
  type OAuthIdentity,
} from "../../providers/oauth/oauth";
import type { AuthService, SignIn } from "../auth/auth.service";
import type { OAuthRepo } from "./oauth.repo";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
/** How long a started sign-in (its state and its browser binding cookie) stays valid, ms. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

const otherBrowser = () => badRequest(msg("oauth.signWasStartedAnotherBrowser"), "oauth_binding");

/** Compares two hex digests in constant time; false when either is empty. */
function sameDigest(stored: string, given: string): boolean {
  if (!stored || stored.length !== given.length) return false;
  return timingSafeEqual(Buffer.from(stored), Buffer.from(given));
}

/**
 * Sign-in with a video platform account (product.md §7: POST /{video-platform}/callback) through OAuth
 * 2.0 with state and PKCE. The identity is keyed on the provider's subject id; it is never merged
 * into an existing account because of a matching e-mail (that would let whoever controls the
 * provider account take over ours).
 */
export class OAuthService {
  constructor(
    private readonly repo: OAuthRepo,
    private readonly auth: AuthService,
    private readonly clients: Record<string, OAuthClient>,
    private readonly log: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The platforms whose sign-in is configured on this server (the login screen offers
   * "Sign in with YouTube" only then), in a stable order, e.g. `["youtube"]`; empty by default.
   */
  configuredPlatforms(): string[] {
    return Object.keys(this.clients)
      .filter((platform) => this.clients[platform]?.configured)
      .sort();
  }

  /**
   * Starts a sign-in: stores a single-use state with its PKCE verifier for 10 minutes, bound to
   * the browser by a fresh random `binding` (only its sha256 is stored) that the route puts in an
   * HttpOnly cookie (login CSRF).
   * @returns the provider's authorization URL to redirect the browser to, and the binding value.
   * @throws AppError 404 for an unknown platform, "oauth_unconfigured" (400) when not set up.
   */
  async start(platform: string): Promise<{ url: string; binding: string }> {
    const client = this.client(platform);
    const state = createState();
    const binding = randomBytes(32).toString("base64url");
    const pkce = await createPkce();
    const now = this.now();
    await this.repo.deleteExpiredStates(now);
    await this.repo.insertState({
      state_hash: sha256(state),
      provider: platform,
      code_verifier: pkce.verifier,
      expires_at: now + OAUTH_STATE_TTL_MS,
      binding_hash: sha256(binding),
    });
    return { url: client.authorizationUrl(state, pkce.challenge), binding };
  }

  /**
   * Finishes a sign-in: the state must be one we issued for this platform, unexpired and unused
   * (it is consumed here, so a replayed callback fails), and the browser posting it must carry
   * the binding cookie of the browser that started the flow (a state fetched by one
   * client cannot complete a sign-in posted by another); then the code is exchanged.
   * @param params the provider's `code`, `state` and, when it sent one, `iss` (RFC 9207).
   * @param binding the value of the binding cookie, undefined when the request has none.
   * @throws AppError 400 "oauth_binding" without the cookie or with another flow's, "oauth_state"
   * for a wrong, expired or replayed state, "oauth_code" for a code the provider refuses or an
   * answer naming another issuer or client (the `iss` parameter, the ID token's `iss` or `aud`).
   */
  async callback(
    platform: string,
    params: OAuthCallbackParams,
    binding: string | undefined,
  ): Promise<SignIn> {
    const client = this.client(platform);
    if (!binding) throw otherBrowser();
    const row = await this.repo.takeState(sha256(params.state), platform, this.now());
    if (!row) throw badRequest(msg("oauth.signAttemptExpiredWasAlready"), "oauth_state");
    if (!sameDigest(row.binding_hash, sha256(binding))) throw otherBrowser();
    let identity: OAuthIdentity;
    try {
      identity = await client.identify(params, row.code_verifier);
    } catch (error) {
      this.log(error);
      throw badRequest(msg("oauth.signWasRefusedByProvider"), "oauth_code");
    }
    const user = await this.findOrCreateUser(platform, identity);
    return this.auth.signInAs(user);
  }

  private async findOrCreateUser(platform: string, identity: OAuthIdentity): Promise<User> {
    const linked = await this.repo.findLinkedUser(platform, identity.subject);
    if (linked) return linked;
    const taken = identity.email ? await this.repo.emailTaken(identity.email) : false;
    // A new account of its own; the e-mail is used only when no other account has it.
    const email =
      identity.email && identity.emailVerified && !taken
        ? identity.email
        : `${platform}-${sha256(identity.subject).slice(0, 16)}@oauth.invalid`;
    const user = await this.auth.createAccount({ email, fullName: identity.name, planName: "Free" });
    await this.repo.link(platform, identity.subject, user.id, this.now());
    return user;
  }

  private client(platform: string): OAuthClient {
    const client = this.clients[platform];
    if (!client) throw new AppError("not_found", msg("oauth.unknownSignPlatform", { platform }));
    if (!client.configured) {
      throw badRequest(msg("oauth.signNotConfiguredServer", { platform }), "oauth_unconfigured");
    }
    return client;
  }
}
