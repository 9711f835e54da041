// OAuth sign-in routes: the start (redirect to the provider) and the spec's POST /{video-platform}/callback.
import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { GET_WRITES } from "../../http/route-writes";
import { parseInput } from "../../http/validate";
import { presentSignIn } from "../auth/auth.presenter";
import { CallbackBody } from "./oauth.schemas";
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

/** OAuth sign-in: start (redirect to the provider) and the spec's `POST /{video-platform}/callback`. */
export function oauthRoutes(app: FastifyInstance, oauth: OAuthService): void {
  /**
   * Public: which OAuth sign-ins this server offers, for the login screen's buttons.
   * Answers `{success: 1, message, data: {platforms: string[]}}`; names only, no configuration.
   */
  app.get("/api/auth/oauth/platforms", { config: rateLimit(120, 60_000) }, async () =>
    ok("Sign-in platforms.", { data: { platforms: oauth.configuredPlatforms() } }),
  );

  app.get<{ Params: { platform: string } }>(
    "/api/auth/oauth/:platform/start",
    { config: { ...rateLimit(30, 10 * 60_000), ...GET_WRITES } },
    async (request, reply) => {
      const { url, binding } = await oauth.start(request.params.platform);
      reply.header("set-cookie", bindingCookie(request, binding, OAUTH_STATE_TTL_MS));
      return reply.redirect(url);
    },
  );

  app.post<{ Params: { platform: string } }>(
    "/api/:platform/callback",
    { config: rateLimit(20, 15 * 60_000) },
    async (request, reply) => {
      const binding = request.cookies[BINDING_COOKIE] || undefined;
      // A binding serves one attempt, whatever its outcome.
      reply.clearCookie(BINDING_COOKIE, BINDING_OPTIONS);
      const body = parseInput(CallbackBody, request.body);
      const result = await oauth.callback(
        request.params.platform,
        { code: body.code, state: body.state, iss: body.iss },
        binding,
      );
      return presentSignIn(result, "Login successful.");
    },
  );
}
