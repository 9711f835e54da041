// Calls of the public pages (product.md §7 "Public pages"): pricing plans, free subscription, contact, password reset.
import type { Envelope, FreeSubscribeOffer, PricingPlan } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";

/**
 * Calls of the public pages (product.md §7, "Public pages"). None of them needs a session, so a
 * 401 here is an answer to show, not an expired session.
 */

/** A pricing plan's shape, declared once in common/api (the server's presenter returns it). */
export type { PricingPlan } from "../../common/api";

/** GET /payment/pricing: the plans in display order. Throws `ApiError` on success 0. */
export async function listPricingPlans(): Promise<PricingPlan[]> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<PricingPlan[]>>("/payment/pricing", { expireOn401: false }),
  );
  return Array.isArray(answer.data) ? answer.data : [];
}

/**
 * GET /users/free/subscribe (ours): whether this server offers the free subscription (a video to
 * comment the code on is configured). Throws `ApiError` when the answer is not ok.
 */
export async function freeSubscriptionOffered(): Promise<boolean> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<FreeSubscribeOffer>>("/users/free/subscribe", { expireOn401: false }),
  );
  return answer.data?.offered === true;
}

/**
 * POST /users/free/subscribe/process with `email` (product.md §2 "Free chat subscribe"). Returns
 * `{success, message, page?}` as is, whatever `success` (HTTP 4xx answers use the envelope too).
 */
export function requestFreeSubscription(email: string): Promise<Envelope> {
  return apiRequest("/users/free/subscribe/process", {
    method: "POST",
    body: new URLSearchParams({ email }),
    expireOn401: false,
  });
}

/** The contact form's fields (product.md §3 "Form payloads"), already trimmed. */
export interface ContactMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** POST /contact with `name`, `email`, `subject`, `message`. Returns the envelope as is. */
export function contactAdmin(input: ContactMessage): Promise<Envelope> {
  return apiRequest("/contact", {
    method: "POST",
    body: new URLSearchParams({ ...input }),
    expireOn401: false,
  });
}

/** The reset form (product.md §3): new password, retyped password and the code from the reset link. */
export interface PasswordReset {
  npassword: string;
  rtpassword: string;
  code: string;
}

/**
 * PATCH /users/change-password with `npassword`, `rtpassword`, `code` (product.md §7). Answers
 * `{success, message, page}`; a bad, used or expired code answers HTTP 400 `{success: 0, message}`.
 * Returns the envelope as is.
 */
export function resetPassword(input: PasswordReset): Promise<Envelope> {
  return apiRequest("/users/change-password", {
    method: "PATCH",
    body: new URLSearchParams({ ...input }),
    expireOn401: false,
  });
}
