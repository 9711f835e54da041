// Request shapes of the sign-in routes (login, device and demo login, extend, logout, devices), checked with zod.
import { z } from "zod";
import { RULES } from "../../../common/validation";
import { textField } from "../../http/validate";

/** POST /api/auth/login: the e-mail, the password and, from a device, its id (product.md §5 "Login"). */
export const LoginBody = z.object({
  /** product.md §5 "Login": required; the format is not checked here (a wrong address just fails). */
  email: textField(RULES.loginEmail).toLowerCase(),
  password: textField(RULES.loginPassword),
  id: z.string().optional(),
});
/** POST /api/auth/device-login: the device secret. */
export const DeviceBody = z.object({
  id: z.string().trim().min(20, "The device id is not valid.").max(200, "The device id is not valid."),
});
/** POST /api/auth/devices: the name the user gives the device. */
export const DeviceRegisterBody = z.object({
  name: z.string().trim().max(100, "The device name must be at most 100 characters.").default("My device"),
});
/** DELETE /api/auth/devices?id=: the device to revoke. */
export const DeviceIdQuery = z.object({
  id: z.string().trim().min(1, "The device id is required.").max(100, "The device id is not valid."),
});
/** POST /api/auth/demo-login: the browser's demo id. */
export const DemoBody = z.object({
  id: z.string().trim().min(1, "The demo id is required.").max(100, "The demo id is not valid."),
});
/** POST /api/auth/extend and logout: the token, when it does not come as the bearer. */
export const TokenBody = z.object({ token: z.string().optional() });
