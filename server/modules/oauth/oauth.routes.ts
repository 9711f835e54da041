import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { rateLimit } from "../../http/rate-limit";
import { parseInput } from "../../http/validate";
import { presentSignIn } from "../auth/auth.presenter";
import type { OAuthService } from "./oauth.service";

const CallbackBody = z.object({
  code: z.string().trim().min(1, "is required").max(2000),
  state: z.string().trim().min(1, "is required").max(200),
});

/** OAuth sign-in: start (redirect to the provider) and the spec's `POST /{video-platform}/callback`. */
export function oauthRoutes(app: FastifyInstance, oauth: OAuthService): void {
  app.get<{ Params: { platform: string } }>(
    "/api/auth/oauth/:platform/start",
    { config: rateLimit(30, 10 * 60_000) },
    async (request, reply) => reply.redirect(await oauth.start(request.params.platform)),
  );

  app.post<{ Params: { platform: string } }>(
    "/api/:platform/callback",
    { config: rateLimit(20, 15 * 60_000) },
    async (request) => {
      const body = parseInput(CallbackBody, request.body);
      const result = await oauth.callback(request.params.platform, body.code, body.state);
      return presentSignIn(result, "Login successful.");
    },
  );
}
