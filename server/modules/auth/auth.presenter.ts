// How sign-in answers look (product.md §3, §7): the session user, the sign-in answer with token and landing page, a device, the admin role.

import type { SessionUser, SignedInDevice, SignInReply } from "../../../common/api";
import type { Device, User } from "../../db/schema";
import { ok } from "../../http/envelope";
import type { Message } from "../../i18n/messages";
import type { SignIn } from "./auth.service";

/** Whether the account has the admin role, as its database row says. */
export function isAdmin(user: Pick<User, "role">): boolean {
  return user.role === "admin";
}

/** The session user of product.md §3 (`user` in local storage). Flags as the strings '0'/'1'. */
export function presentSessionUser(user: User): SessionUser {
  return {
    id: user.id,
    cl: user.character_limit,
    vl: user.voice_limit,
    pl: user.photo_upload ? "1" : "0",
    il: user.image_generation ? "1" : "0",
    adult: user.adult_confirmed_at ? "1" : "0",
    name: user.full_name,
    userName: user.user_name,
    userEmail: user.is_demo ? "" : user.email,
    userPicture: user.picture,
    uiLanguage: user.ui_language,
    isAdmin: isAdmin(user),
  };
}

/** The answer of every sign-in route (product.md §7): token, expiry (epoch ms), session user, landing page. */
export function presentSignIn(result: SignIn, message: Message): SignInReply {
  return ok(message, {
    page: result.page,
    data: { token: result.token, expirationTime: result.expiresAt, user: presentSessionUser(result.user) },
  });
}

/** A registered device as the profile lists it: never its secret or secret hash. */
export function presentDevice(device: Device): SignedInDevice {
  return {
    id: device.id,
    name: device.name,
    createdAt: device.created_at,
    lastUsedAt: device.last_used_at,
  };
}
