// Sign-in routes (product.md §7 "Authentication"): login, demo login, extend, logout, device login and the user's devices.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { unauthorized } from "../../errors";
import { bearerToken, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { parseInput } from "../../http/validate";
import { presentDevice, presentSessionUser, presentSignIn } from "./auth.presenter";
import {
  DemoBody,
  DeviceBody,
  DeviceIdQuery,
  DeviceRegisterBody,
  LoginBody,
  TokenBody,
} from "./auth.schemas";
import type { AuthService } from "./auth.service";
import { CREDENTIAL_LIMITS } from "./credential-limit-table";
import { limitPerAddressAndEmail } from "./credential-limits";

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
  app.post("/api/auth/login", limitPerAddressAndEmail(app, ...CREDENTIAL_LIMITS.signIn), async (request) => {
    const { email, password } = parseInput(LoginBody, request.body);
    return presentSignIn(await auth.login(email, password), "Login successful.");
  });

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
