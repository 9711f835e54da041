// Profile and password calls of the signed-in user (product.md §7): profile, update, password change, UI language, age gate.
import type { Envelope, SessionUser, UserProfile } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";

/** Profile and password calls of the signed-in user (product.md §7, Characters and profile). */

/** The profile's shape, declared once in common/api (the server's presenter returns it). */
export type { UserProfile } from "../../common/api";

/** What the profile form sends (product.md §7 `users/update`). `photo` only when one was chosen. */
export interface ProfileInput {
  id: string;
  fullName: string;
  userName: string;
  photo?: File;
  oldPhoto: string;
}

/** What the signed-in password change sends (product.md §7 `users/update-password`). */
export interface PasswordChange {
  id: string;
  current: string;
  password: string;
  retyped: string;
}

/** GET /users/profile/?id=<userId>: the profile. Throws on success 0. */
export async function getProfile(userId: string): Promise<UserProfile> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<UserProfile>>("/users/profile/", { query: { id: userId } }),
  );
  if (answer.data === undefined) throw new Error("The profile is missing from the answer.");
  return answer.data;
}

/**
 * POST /users/update, multipart fname, name, photo (only when chosen), old_photo, id. Answers
 * `{success, message, page, data}` where data is the updated session user. Throws on success 0.
 */
export async function updateProfile(input: ProfileInput): Promise<Envelope<SessionUser>> {
  const form = new FormData();
  form.set("fname", input.fullName.trim());
  form.set("name", input.userName.trim());
  if (input.photo !== undefined) form.set("photo", input.photo, input.photo.name);
  form.set("old_photo", input.oldPhoto);
  form.set("id", input.id);
  return ensureSuccess(
    await apiRequest<Envelope<SessionUser>>("/users/update", { method: "POST", body: form }),
  );
}

/**
 * PATCH /users/update-password, form-encoded cpassword, npassword, rtpassword, id. Throws on
 * success 0 (e.g. a wrong current password) with the server's message.
 */
export async function changePassword(input: PasswordChange): Promise<Envelope> {
  const body = new URLSearchParams({
    cpassword: input.current,
    npassword: input.password,
    rtpassword: input.retyped,
    id: input.id,
  });
  return ensureSuccess(await apiRequest("/users/update-password", { method: "PATCH", body }));
}

/**
 * POST /users/ui-language, form `language` (en, es, fr, de, it, pt): keeps the UI
 * language with the account. Answers the updated session user. Throws on success 0.
 */
export async function saveUiLanguage(language: string): Promise<SessionUser> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<SessionUser>>("/users/ui-language", {
      method: "POST",
      body: new URLSearchParams({ language }),
    }),
  );
  if (answer.data === undefined) throw new Error("The session user is missing from the answer.");
  return answer.data;
}

/**
 * POST /users/confirm-age (ours), the chat's adult gate: stores that the person confirmed being 18 or older.
 * @returns the fresh session user (`adult` '1'). Throws on success 0.
 */
export async function confirmAdult(): Promise<SessionUser> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<SessionUser>>("/users/confirm-age", {
      method: "POST",
      body: new URLSearchParams({ confirm: "1" }),
    }),
  );
  if (answer.data === undefined) throw new Error("The user is missing from the answer.");
  return answer.data;
}
