import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { bearerToken } from "../../http/auth";
import { ok } from "../../http/envelope";
import { unauthorized } from "../../http/errors";
import { parseInput } from "../../http/validate";
import { presentSessionUser } from "./auth.presenter";
import type { AuthService, SignIn } from "./auth.service";

const LoginBody = z.object({
  email: z.string().trim().min(1, "is required").max(254),
  password: z.string().min(1, "is required").max(1024),
  id: z.string().optional(),
});
const DemoBody = z.object({ id: z.string().trim().min(1, "is required").max(100) });
const TokenBody = z.object({ token: z.string().optional() });

const signedIn = (result: SignIn, message: string) =>
  ok(message, {
    page: result.page,
    data: { token: result.token, expirationTime: result.expiresAt, user: presentSessionUser(result.user) },
  });

/** spec 7 "Authentication": login, demo-login, extend, logout. */
export function authRoutes(app: FastifyInstance, auth: AuthService): void {
  app.post("/api/auth/login", async (request) => {
    const body = parseInput(LoginBody, request.body);
    return signedIn(await auth.login(body.email, body.password), "Login successful.");
  });

  app.post("/api/auth/demo-login", async (request) => {
    const body = parseInput(DemoBody, request.body);
    return signedIn(await auth.demoLogin(body.id), "Welcome! Enjoy your demo.");
  });

  app.post("/api/auth/extend", async (request) => {
    const token = bearerToken(request) ?? parseInput(TokenBody, request.body).token;
    if (!token) throw unauthorized();
    const expirationTime = await auth.extend(token);
    return ok("Session extended.", { data: { token, expirationTime } });
  });

  app.post("/api/auth/logout", async (request) => {
    const token = bearerToken(request) ?? parseInput(TokenBody, request.body).token;
    if (token) await auth.logout(token);
    return ok("Logged out.", { page: "/" });
  });
}
