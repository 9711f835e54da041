// Sign-in calls (product.md §7 "Authentication"): password, demo, device and OAuth sign-in, forgot password, token extend, devices.
import type { Envelope, OAuthPlatforms, SessionUser, SignedInDevice, SignInReply } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";
import { ApiError } from "./errors";

/**
 * Sign-in calls (product.md §7, Authentication). Each answers the envelope
 * `{success, message, page, data: {token, user}}`; the caller stores the session.
 * A 401 here means "wrong credentials", so it does not end a session.
 */

export type LoginEnvelope = SignInReply;

/** POST /auth/login with `id`, `email`, `password` (product.md §7). Returns the envelope as is. */
export function loginWithPassword(input: {
  email: string;
  password: string;
  id?: string;
}): Promise<LoginEnvelope> {
  const body = new URLSearchParams({ id: input.id ?? "", email: input.email, password: input.password });
  return apiRequest<LoginEnvelope>("/auth/login", { method: "POST", body, expireOn401: false });
}

/** POST /auth/demo-login with `id` (the route parameter of /login/:id, e.g. `demo`). */
export function demoLogin(id: string): Promise<LoginEnvelope> {
  return apiRequest<LoginEnvelope>("/auth/demo-login", {
    method: "POST",
    body: new URLSearchParams({ id }),
    expireOn401: false,
  });
}

/**
 * POST /auth/device-login with `id`: the device id read from the user agent's
 * `CompanionDevice/<id>` marker (product.md §2: device login runs automatically).
 */
export function deviceLogin(id: string): Promise<LoginEnvelope> {
  return apiRequest<LoginEnvelope>("/auth/device-login", {
    method: "POST",
    body: new URLSearchParams({ id }),
    expireOn401: false,
  });
}

/**
 * POST /youtube/callback with `code` and `state`: the video platform's OAuth return to
 * /login/youtube?code=..&state=.. (product.md §7: "/{video-platform}/callback").
 */
export function youtubeCallback(code: string, state: string): Promise<LoginEnvelope> {
  return apiRequest<LoginEnvelope>("/youtube/callback", {
    method: "POST",
    body: new URLSearchParams({ code, state }),
    expireOn401: false,
  });
}

/**
 * GET /auth/oauth/platforms (ours): the OAuth sign-ins this server has configured,
 * e.g. `["youtube"]`, empty in a default install. Throws `ApiError` when the answer is not ok.
 */
export async function oauthPlatforms(): Promise<string[]> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<OAuthPlatforms>>("/auth/oauth/platforms", {
      expireOn401: false,
      maintenanceOn503: false,
    }),
  );
  const platforms = answer.data?.platforms;
  return Array.isArray(platforms) ? platforms.filter((p): p is string => typeof p === "string") : [];
}

/** The address that starts the YouTube sign-in; the server redirects to the provider. */
export const YOUTUBE_SIGN_IN_URL = "/api/auth/oauth/youtube/start";

/** POST /auth/forgot-password with `email`; the envelope is returned as is (product.md §7). */
export function forgotPassword(email: string): Promise<Envelope> {
  return apiRequest("/auth/forgot-password", {
    method: "POST",
    body: new URLSearchParams({ email }),
    expireOn401: false,
  });
}

/**
 * POST /auth/extend with `token` and the bearer header (product.md §4, 7). Resolves the new token
 * (from `data.token`, a top-level `token`, or the old one when the server keeps it) and, when
 * the server sends it, the fresh session user (flags follow a plan change without
 * signing out); throws `ApiError` when the server refuses.
 */
export async function extendToken(token: string): Promise<{ token: string; user?: SessionUser }> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<{ token?: string; user?: SessionUser }> & { token?: string }>("/auth/extend", {
      method: "POST",
      body: new URLSearchParams({ token }),
      token,
    }),
  );
  const next = answer.data?.token ?? answer.token ?? token;
  if (typeof next !== "string" || next === "") throw new ApiError("No token in extend answer", "envelope");
  const user = answer.data?.user;
  return { token: next, user: user !== undefined && typeof user.id === "string" ? user : undefined };
}

/** GET /auth/devices (ours): the signed-in user's devices, newest first. Throws on success 0. */
export async function listDevices(): Promise<SignedInDevice[]> {
  const answer = ensureSuccess(await apiRequest<Envelope<SignedInDevice[]>>("/auth/devices"));
  return answer.data ?? [];
}

/**
 * DELETE /auth/devices?id=<device id> (ours): revokes the device; the sessions it
 * started end with it. Throws on success 0 (e.g. 404 for a device already gone).
 */
export async function revokeDevice(id: string): Promise<Envelope> {
  return ensureSuccess(await apiRequest("/auth/devices", { method: "DELETE", query: { id } }));
}
