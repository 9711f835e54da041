// Erasing the signed-in user's account ("Erase my account", POST /account/delete), confirmed with the password.
import type { Envelope } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";

/**
 * POST /account/delete (ours, "Erase my account"), form-encoded `password` and
 * `confirm`: erases the signed-in user's account for good. `secret` is the account's password, or
 * for an account without one its e-mail (a guest: its user name); it is sent as both fields and
 * the server checks the one that applies. Answers `{success: 1, message, page: "/"}`.
 * Throws `ApiError` on success 0 (code "wrong_password" for a wrong password or confirmation,
 * "forbidden" when a fresh sign-in is needed or a subscription still renews).
 */
export async function eraseAccount(secret: string): Promise<Envelope> {
  const body = new URLSearchParams({ password: secret, confirm: secret });
  return ensureSuccess(await apiRequest("/account/delete", { method: "POST", body }));
}
