// Request and answer shapes of the sign-in routes (login, device and demo login, extend, logout, devices), checked with zod, and their documentation.
import { z } from "zod";
import {
  Envelope,
  envelopeOf,
  LoginData,
  RegisteredDevice,
  SignedInDevice,
  SignInReply,
} from "../../../common/api";
import { RULES } from "../../../common/validation";
import { answers } from "../../http/route-schemas";
import { textField } from "../../http/validate";
import { msg, zodText } from "../../i18n/messages";

/** POST /api/auth/login: the e-mail, the password and, from a device, its id (product.md §5 "Login"). */
export const LoginBody = z.object({
  /** product.md §5 "Login": required; the format is not checked here (a wrong address just fails). */
  email: textField(RULES.loginEmail).toLowerCase(),
  password: textField(RULES.loginPassword),
  id: z.string().optional(),
});
/** POST /api/auth/device-login: the device secret. */
export const DeviceBody = z.object({
  id: z
    .string()
    .trim()
    .min(20, zodText(msg("auth.deviceIdNotValid")))
    .max(200, zodText(msg("auth.deviceIdNotValid")))
    .describe("the device secret"),
});
/** POST /api/auth/devices: the name the user gives the device. */
export const DeviceRegisterBody = z.object({
  name: z
    .string()
    .trim()
    .max(100, zodText(msg("auth.deviceNameMustMost100")))
    .default("My device")
    .describe('default "My device"'),
});
/** DELETE /api/auth/devices?id=: the device to revoke. */
export const DeviceIdQuery = z.object({
  id: z
    .string()
    .trim()
    .min(1, zodText(msg("auth.deviceIdRequired")))
    .max(100, zodText(msg("auth.deviceIdNotValid"))),
});
/** POST /api/auth/demo-login: the browser's demo id. */
export const DemoBody = z.object({
  id: z
    .string()
    .trim()
    .min(1, zodText(msg("auth.demoIdRequired")))
    .max(100, zodText(msg("auth.demoIdNotValid")))
    .describe("must equal `DEMO_LOGIN_ID`"),
});
/**
 * POST /api/auth/extend and logout: the token, when it does not come as the bearer (a bearer
 * token is copied here before the check, so it wins and the body is not read).
 */
export const TokenBody = z.object({
  token: z.string().optional().describe("the session token, when it does not come as the bearer"),
});

/** The answer of every sign-in (login, device and demo login, the OAuth callback: `presentSignIn`). */
export const SIGN_IN_ANSWER = answers(SignInReply);
/** The answer of POST /api/auth/extend: `data` as a sign-in's (token, expiry, fresh user), no `page`. */
export const EXTEND_ANSWER = answers(envelopeOf(LoginData));
/** The answer of POST /api/auth/devices: the new device's secret and user agent marker, once. */
export const DEVICE_ANSWER = answers(envelopeOf(RegisteredDevice));
/** The answer of GET /api/auth/devices: the user's devices (never their secrets). */
export const DEVICES_ANSWER = answers(envelopeOf(SignedInDevice.array()));
/** An answer with nothing but the envelope (`success`, `message`, maybe `page`): logout, revoke. */
export const BARE_ANSWER = answers(Envelope);

/** The section of docs/api.md's routes that lists the sign-in routes. */
const SECTION = "Auth and accounts";

/**
 * The documentation of a sign-in route in its schema (the OpenAPI document): what it answers
 * (docs/api.md's Answers cell), where it comes from (From) and, when not the default, who may call it.
 */
export const authDoc = (description: string, from: string, who?: string) => ({
  tags: [SECTION],
  description,
  "x-from": from,
  ...(who ? { "x-who": who } : {}),
});
