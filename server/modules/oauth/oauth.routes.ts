// OAuth sign-in routes: the start (redirect to the provider) and the spec's POST /{video-platform}/callback.
import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { envelopeOf, OAuthPlatforms } from "../../../common/api";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { answers, zodApp } from "../../http/route-schemas";
import { GET_WRITES } from "../../http/route-writes";
import { msg } from "../../i18n/messages";
import { presentSignIn } from "../auth/auth.presenter";
import { SIGN_IN_ANSWER } from "../auth/auth.schemas";
import { CallbackBody, oauthDoc, PlatformParams } from "./oauth.schemas";
import { OAUTH_STATE_TTL_MS, type OAuthService } from "./oauth.service";

/** The cookie binding a started sign-in to its browser (login CSRF). */
const BINDING_COOKIE = "oauth_binding";

/**
 * The binding cookie's attributes: HttpOnly, SameSite=Lax (it rides along the top-level return
 * from the provider and the SPA's same-origin callback post, never a cross-site post), only under
 * /api/, Secure when the request came over https (directly or through a trusted proxy).
 */
const BINDING_OPTIONS: CookieSerializeOptions = {
  path: "/api/",
  httpOnly: true,
  sameSite: "lax",
  secure: "auto",
};

/**
 * The start's Set-Cookie for `value`, valid `maxAgeMs`: BINDING_OPTIONS in the attribute order
 * `Path; HttpOnly; SameSite; Max-Age; Secure` that security/oauth.test.ts pins, which
 * @fastify/cookie's serialiser (`Max-Age; Path; HttpOnly; Secure; SameSite`) cannot write.
 */
function bindingCookie(request: FastifyRequest, value: string, maxAgeMs: number): string {
  const secure = request.protocol === "https" ? "; Secure" : "";
  return `${BINDING_COOKIE}=${value}; Path=/api/; HttpOnly; SameSite=Lax; Max-Age=${Math.round(maxAgeMs / 1000)}${secure}`;
}

/**
 * A binding serves one attempt, whatever its outcome: the callback clears the cookie before its
 * input is checked, so a refused body clears it too (the request keeps the cookie it sent).
 */
async function clearBinding(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.clearCookie(BINDING_COOKIE, BINDING_OPTIONS);
}

/** OAuth sign-in: start (redirect to the provider) and the spec's `POST /{video-platform}/callback`. */
export function oauthRoutes(app: FastifyInstance, oauth: OAuthService): void {
  const api = zodApp(app);
  /**
   * Public: which OAuth sign-ins this server offers, for the login screen's buttons.
   * Answers `{success: 1, message, data: {platforms: string[]}}`; names only, no configuration.
   */
  const platforms = {
    ...oauthDoc("`data.platforms`: names of the configured OAuth sign-ins", "ours"),
    response: answers(envelopeOf(OAuthPlatforms)),
  };
  api.get("/api/auth/oauth/platforms", { config: rateLimit(120, 60_000), schema: platforms }, async () =>
    ok(msg("oauth.signPlatforms"), { data: { platforms: oauth.configuredPlatforms() } }),
  );

  // A redirect (302 with a Location), no JSON: no response schema.
  const start = {
    ...oauthDoc("redirect to the provider, with an `oauth_binding` cookie", "ours"),
    params: PlatformParams,
  };
  api.get(
    "/api/auth/oauth/:platform/start",
    { config: { ...rateLimit(30, 10 * 60_000), ...GET_WRITES }, schema: start },
    async (request, reply) => {
      const { url, binding } = await oauth.start(request.params.platform);
      reply.header("set-cookie", bindingCookie(request, binding, OAUTH_STATE_TTL_MS));
      return reply.redirect(url);
    },
  );

  const callback = {
    ...oauthDoc("sign-in; `oauth_*` codes on refusal", "§7", "public (with that cookie)"),
    params: PlatformParams,
    body: CallbackBody,
    response: SIGN_IN_ANSWER,
  };
  api.post(
    "/api/:platform/callback",
    { config: rateLimit(20, 15 * 60_000), preValidation: clearBinding, schema: callback },
    async (request) => {
      const { params, body } = request;
      const binding = request.cookies[BINDING_COOKIE] || undefined;
      const result = await oauth.callback(
        params.platform,
        { code: body.code, state: body.state, iss: body.iss },
        binding,
      );
      return presentSignIn(result, msg("auth.loginSuccessful"));
    },
  );
}
