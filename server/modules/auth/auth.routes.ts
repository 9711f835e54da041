import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { z } from "zod";
import { RULES } from "../../../common/validation";
import { unauthorized } from "../../errors";
import { bearerToken, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { parseInput, textField } from "../../http/validate";
import { presentDevice, presentSessionUser, presentSignIn } from "./auth.presenter";
import type { AuthService } from "./auth.service";
import { limitPerAddressAndEmail } from "./credential-limits";

const LoginBody = z.object({
  /** product.md §5 "Login": required; the format is not checked here (a wrong address just fails). */
  email: textField(RULES.loginEmail).toLowerCase(),
  password: textField(RULES.loginPassword),
  id: z.string().optional(),
});
const DeviceBody = z.object({
  id: z.string().trim().min(20, "The device id is not valid.").max(200, "The device id is not valid."),
});
const DeviceRegisterBody = z.object({
  name: z.string().trim().max(100, "The device name must be at most 100 characters.").default("My device"),
});
const DeviceIdQuery = z.object({
  id: z.string().trim().min(1, "The device id is required.").max(100, "The device id is not valid."),
});
const DemoBody = z.object({
  id: z.string().trim().min(1, "The demo id is required.").max(100, "The demo id is not valid."),
});
const TokenBody = z.object({ token: z.string().optional() });

/**
 * product.md §7 "Authentication": login, demo-login, extend, logout; ours: device login and
 * the signed-in user's devices (behind the session, in their own scope).
 */
export async function authRoutes(
  app: FastifyInstance,
  auth: AuthService,
  requireAuth: onRequestAsyncHookHandler,
): Promise<void> {
  const minute = 60_000;
  // credential stuffing: per client address across all e-mails, and per e-mail across
  // all addresses. The per-e-mail window is short: while an account is under attack its owner
  // waits at most five minutes too (README, Security).
  app.post(
    "/api/auth/login",
    limitPerAddressAndEmail(
      app,
      { max: 30, windowMs: 15 * minute },
      {
        name: "login-email",
        max: 10,
        windowMs: 5 * minute,
        message: "Too many sign-in attempts for this account.",
      },
    ),
    async (request) => {
      const body = parseInput(LoginBody, request.body);
      return presentSignIn(await auth.login(body.email, body.password), "Login successful.");
    },
  );

  app.post("/api/auth/device-login", { config: rateLimit(20, 15 * minute) }, async (request) => {
    const body = parseInput(DeviceBody, request.body);
    return presentSignIn(await auth.deviceLogin(body.id), "Login successful.");
  });

  app.post("/api/auth/demo-login", { config: rateLimit(60, 10 * minute) }, async (request) => {
    const body = parseInput(DemoBody, request.body);
    return presentSignIn(await auth.demoLogin(body.id), "Welcome! Enjoy your demo.");
  });

  app.post("/api/auth/extend", async (request) => {
    const token = bearerToken(request) ?? parseInput(TokenBody, request.body).token;
    if (!token) throw unauthorized();
    const { expiresAt, user } = await auth.extend(token);
    // the fresh session user, so flags follow a plan change without signing out.
    return ok("Session extended.", {
      data: { token, expirationTime: expiresAt, user: presentSessionUser(user) },
    });
  });

  app.post("/api/auth/logout", async (request) => {
    const token = bearerToken(request) ?? parseInput(TokenBody, request.body).token;
    if (token) await auth.logout(token);
    return ok("Logged out.", { page: "/" });
  });

  await signedIn(app, requireAuth, (scope) => deviceRoutes(scope, auth));
}

/** The signed-in user's devices; registered behind the session hook. */
function deviceRoutes(app: FastifyInstance, auth: AuthService): void {
  /** Registers a device for device login; answers the secret once and the user agent marker to use. */
  app.post("/api/auth/devices", async (request) => {
    const body = parseInput(DeviceRegisterBody, request.body);
    const device = await auth.registerDevice(currentUser(request), body.name);
    return ok("Device registered.", {
      data: { deviceId: device.secret, userAgentMarker: `CompanionDevice/${device.secret}` },
    });
  });

  /** Ours: the signed-in user's devices, for the profile's list. */
  app.get("/api/auth/devices", async (request) => {
    const devices = await auth.listDevices(currentUser(request));
    return ok("Devices.", { data: devices.map(presentDevice) });
  });

  /** Ours: revokes one device (`?id=`) and the sessions it started; 404 for others' ids. */
  app.delete("/api/auth/devices", async (request) => {
    const { id } = parseInput(DeviceIdQuery, request.query);
    await auth.revokeDevice(currentUser(request), id);
    return ok("Device revoked.");
  });
}
