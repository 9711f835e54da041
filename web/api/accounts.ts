// Calls of self-hosted accounts: owner set-up, sign-up, and the admin console's users and invitations.
import type {
  AddedUser,
  Envelope,
  Invitation,
  RegistrationStatus,
  SetupLinkStatus,
  SiteRegistration,
} from "../../common/api";
import type { LoginEnvelope } from "./auth";
import { apiRequest, ensureSuccess } from "./client";

/** Who may sign up on this server (REGISTRATION). */
export type RegistrationMode = SiteRegistration;

/** An open invitation as the console lists it, and a user made in the console (common/api). */
export type { AddedUser, Invitation } from "../../common/api";

/** A POST with form fields; `signedIn` calls (the console) end an expired session on 401. */
const post = <T extends Envelope>(path: string, fields: Record<string, string>, signedIn = false) =>
  apiRequest<T>(path, { method: "POST", body: new URLSearchParams(fields), expireOn401: signedIn });

/** GET /auth/registration: the sign-up mode; "closed" when the answer is not usable. */
export async function registrationMode(): Promise<RegistrationMode> {
  const answer = await apiRequest<Envelope<RegistrationStatus>>("/auth/registration", {
    expireOn401: false,
    maintenanceOn503: false,
  });
  const mode = answer.data?.mode;
  return mode === "open" || mode === "invite" ? mode : "closed";
}

/** GET /setup/:token: whether the owner set-up link still works. */
export async function setupLinkValid(token: string): Promise<boolean> {
  const answer = await apiRequest<Envelope<SetupLinkStatus>>(`/setup/${encodeURIComponent(token)}`, {
    expireOn401: false,
  });
  return answer.data?.valid === true;
}

/** POST /setup: creates the owner account (admin) and signs it in; the envelope as is. */
export function completeSetup(input: {
  token: string;
  email: string;
  name: string;
  password: string;
}): Promise<LoginEnvelope> {
  return post<LoginEnvelope>("/setup", input);
}

/** POST /auth/signup/start: mails a 6-digit code; the envelope as is. */
export function startSignup(input: { email: string; invite?: string }): Promise<Envelope> {
  return post("/auth/signup/start", {
    email: input.email,
    ...(input.invite ? { invite: input.invite } : {}),
  });
}

/** POST /auth/signup/finish: creates the account with the code and signs it in; the envelope as is. */
export function finishSignup(input: {
  email: string;
  code: string;
  password: string;
  name: string;
  invite?: string;
}): Promise<LoginEnvelope> {
  const { invite, ...fields } = input;
  return post<LoginEnvelope>("/auth/signup/finish", { ...fields, ...(invite ? { invite } : {}) });
}

/** POST /admin/accounts: adds a user (a blank password makes the server generate one). */
export async function addUser(input: {
  email: string;
  name: string;
  password: string;
  admin: boolean;
}): Promise<Envelope<AddedUser>> {
  return ensureSuccess(
    await post<Envelope<AddedUser>>("/admin/accounts", { ...input, admin: input.admin ? "1" : "0" }, true),
  );
}

/** GET /admin/invitations: the open invitations, newest first. */
export async function listInvitations(): Promise<Invitation[]> {
  return ensureSuccess(await apiRequest<Envelope<Invitation[]>>("/admin/invitations")).data ?? [];
}

/** POST /admin/invitations: a one-use invitation for `days` days, locked to `email` when given. */
export async function createInvitation(input: {
  email: string;
  days: number;
}): Promise<Envelope<Invitation>> {
  return ensureSuccess(
    await post<Envelope<Invitation>>(
      "/admin/invitations",
      { email: input.email, days: String(input.days) },
      true,
    ),
  );
}

/** POST /admin/invitations/:id/revoke. */
export async function revokeInvitation(id: string): Promise<Envelope> {
  return ensureSuccess(await post(`/admin/invitations/${encodeURIComponent(id)}/revoke`, {}, true));
}
