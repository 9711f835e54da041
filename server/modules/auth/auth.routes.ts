// Sign-in routes (product.md §7 "Authentication"): login, demo login, extend, logout, device login and the user's devices.
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { unauthorized } from "../../errors";
import { bearerToken, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { type ZodApp, zodApp } from "../../http/route-schemas";
import { hasNul } from "../../http/security";
import { msg } from "../../i18n/messages";
import { presentDevice, presentSessionUser, presentSignIn } from "./auth.presenter";
import {
  authDoc,
  BARE_ANSWER,
  DEVICE_ANSWER,
  DEVICES_ANSWER,
  DemoBody,
  DeviceBody,
  DeviceIdQuery,
  DeviceRegisterBody,
  EXTEND_ANSWER,
  LoginBody,
  SIGN_IN_ANSWER,
  TokenBody,
} from "./auth.schemas";
import type { AuthService } from "./auth.service";
import { CREDENTIAL_LIMITS } from "./credential-limit-table";
import { limitPerAddressAndEmail } from "./credential-limits";

const SIGN_IN = "sign-in (`data.token`, `data.user`, `page`); wrong details: 200 `invalid_credentials`";
const DEMO =
  "sign-in as a fresh demo user (removed after 24 h by default); while the owner has the guest demo off, 403 `demo_off` for any id and nothing is created";
const BY_TOKEN = "bearer token (or body `token`)";

/**
 * A bearer token wins over a body `token` (extend, logout): copied into the body before the
 * body's check, so a request with a bearer is not refused for its body, as when the handler read
 * the body only without one (a NUL character in it is still refused, 400 `bad_input`).
 */
async function bearerIntoBody(request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  if (token && !hasNul(request.body)) request.body = { token };
}

/**
 * product.md §7 "Authentication": login, demo-login, extend, logout; ours: device login and
 * the signed-in user's devices (behind the session, in their own scope).
 */
export async function authRoutes(
  app: FastifyInstance,
  auth: AuthService,
  requireAuth: onRequestAsyncHookHandler,
): Promise<void> {
  const api = zodApp(app);
  const minute = 60_000;
  const loginLimits = limitPerAddressAndEmail(app, ...CREDENTIAL_LIMITS.signIn);
  api.post(
    "/api/auth/login",
    { ...loginLimits, schema: { ...authDoc(SIGN_IN, "§7"), body: LoginBody, response: SIGN_IN_ANSWER } },
    async (request) => {
      const { email, password } = request.body;
      return presentSignIn(await auth.login(email, password), msg("auth.loginSuccessful"));
    },
  );

  const deviceLogin = {
    ...authDoc("sign-in; unknown device: 200 `invalid_device`", "§7"),
    body: DeviceBody,
    response: SIGN_IN_ANSWER,
  };
  api.post(
    "/api/auth/device-login",
    { config: rateLimit(20, 15 * minute), schema: deviceLogin },
    async (request) => presentSignIn(await auth.deviceLogin(request.body.id), msg("auth.loginSuccessful")),
  );

  api.post(
    "/api/auth/demo-login",
    {
      config: rateLimit(60, 10 * minute),
      schema: { ...authDoc(DEMO, "§7"), body: DemoBody, response: SIGN_IN_ANSWER },
    },
    async (request) => presentSignIn(await auth.demoLogin(request.body.id), msg("auth.welcomeDemo")),
  );

  const extend = {
    ...authDoc("`data: { token, expirationTime, user }`", "§7", BY_TOKEN),
    body: TokenBody,
    response: EXTEND_ANSWER,
  };
  api.post("/api/auth/extend", { preValidation: bearerIntoBody, schema: extend }, async (request) => {
    const { token } = request.body;
    if (!token) throw unauthorized();
    const { expiresAt, user } = await auth.extend(token);
    // the fresh session user, so flags follow a plan change without signing out.
    return ok(msg("auth.sessionExtended"), {
      data: { token, expirationTime: expiresAt, user: presentSessionUser(user) },
    });
  });

  const logout = { ...authDoc('`page: "/"`', "§7", BY_TOKEN), body: TokenBody, response: BARE_ANSWER };
  api.post("/api/auth/logout", { preValidation: bearerIntoBody, schema: logout }, async (request) => {
    const { token } = request.body;
    if (token) await auth.logout(token);
    return ok(msg("auth.loggedOut"), { page: "/" });
  });

  await signedIn(app, requireAuth, (scope) => deviceRoutes(scope, auth));
}

/** The signed-in user's devices; registered behind the session hook. */
function deviceRoutes(app: ZodApp, auth: AuthService): void {
  /** Registers a device for device login; answers the secret once and the user agent marker to use. */
  const register = {
    ...authDoc("`data: { deviceId, userAgentMarker }` (the secret, shown once)", "ours"),
    body: DeviceRegisterBody,
    response: DEVICE_ANSWER,
  };
  app.post("/api/auth/devices", { schema: register }, async (request) => {
    const device = await auth.registerDevice(currentUser(request), request.body.name);
    return ok(msg("auth.deviceRegistered"), {
      data: { deviceId: device.secret, userAgentMarker: `CompanionDevice/${device.secret}` },
    });
  });

  /** Ours: the signed-in user's devices, for the profile's list. */
  const list = {
    ...authDoc("`data`: `SignedInDevice[]` (never the secret)", "ours"),
    response: DEVICES_ANSWER,
  };
  app.get("/api/auth/devices", { schema: list }, async (request) => {
    const devices = await auth.listDevices(currentUser(request));
    return ok(msg("auth.devices"), { data: devices.map(presentDevice) });
  });

  /** Ours: revokes one device (`?id=`) and the sessions it started; 404 for others' ids. */
  const revoke = {
    ...authDoc("revokes the device and its sessions", "ours"),
    querystring: DeviceIdQuery,
    response: BARE_ANSWER,
  };
  app.delete("/api/auth/devices", { schema: revoke }, async (request) => {
    await auth.revokeDevice(currentUser(request), request.query.id);
    return ok(msg("auth.deviceRevoked"));
  });
}
