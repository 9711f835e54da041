// Invitation links made in the admin console: one use, an expiry, an optional e-mail lock.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { User } from "../../db/schema";
import { AppError, badRequest, notFound } from "../../errors";
import type { AccountsRepo, Invitation } from "./accounts.repo";

/** The days an invitation may last (the console's choice). */
export const INVITATION_DAYS = { min: 1, max: 30 } as const;

/** An open invitation as the console lists it. */
export interface InvitationView {
  id: string;
  email: string;
  expiresAt: number;
  createdAt: number;
  link: string;
}

/** The refusal of an unknown, used, revoked or expired invitation. */
export const invalidInvitation = () =>
  new AppError("invitation_invalid", "This invitation link is invalid, used, revoked or expired.");

/**
 * Invitations to sign up (`/signup?invite=<token>`). The token is `<id>.<mac>`, the mac an
 * HMAC-SHA256 of the id under the server's secret (CONTENT_SECRET or DATA_DIR/content-secret),
 * compared in constant time: nothing secret is stored, so the console can show a link again.
 * A link works in every REGISTRATION mode until it is used, revoked or expired.
 */
export class InvitationsService {
  constructor(
    private readonly repo: AccountsRepo,
    private readonly options: { secret: string; publicUrl: string },
    private readonly now: () => number = Date.now,
  ) {}

  private mac(id: string): string {
    return createHmac("sha256", this.options.secret).update(`invitation:${id}`).digest("base64url");
  }

  private view(invitation: Invitation): InvitationView {
    const token = `${invitation.id}.${this.mac(invitation.id)}`;
    return {
      id: invitation.id,
      email: invitation.email,
      expiresAt: invitation.expires_at,
      createdAt: invitation.created_at,
      link: `${this.options.publicUrl}/signup?invite=${encodeURIComponent(token)}`,
    };
  }

  /**
   * Makes an invitation lasting `days` (1-30), locked to `email` when one is given (audit
   * "invitation.create").
   * @throws AppError 400 when `days` is outside 1-30.
   */
  async create(admin: User, input: { email?: string; days: number }): Promise<InvitationView> {
    const { min, max } = INVITATION_DAYS;
    if (!Number.isInteger(input.days) || input.days < min || input.days > max)
      throw badRequest(`An invitation lasts from ${min} to ${max} days.`);
    const now = this.now();
    const invitation: Invitation = {
      id: randomUUID(),
      email: (input.email ?? "").trim().toLowerCase(),
      expires_at: now + input.days * 86_400_000,
      created_by: admin.id,
      created_at: now,
      used_at: null,
      used_by: null,
      revoked_at: null,
    };
    await this.repo.insertInvitation(invitation);
    await this.repo.audit(admin, "invitation.create", invitation.id, {
      email: invitation.email,
      days: input.days,
    });
    return this.view(invitation);
  }

  /** The invitations still open (not used, revoked or expired), newest first. */
  async listOpen(): Promise<InvitationView[]> {
    return (await this.repo.openInvitations(this.now())).map((i) => this.view(i));
  }

  /** Revokes an open invitation (audit "invitation.revoke"). @throws AppError 404 when there is no open one with this id. */
  async revoke(admin: User, id: string): Promise<void> {
    if (!(await this.repo.revokeInvitation(id, this.now()))) throw notFound("Invitation not found.");
    await this.repo.audit(admin, "invitation.revoke", id, {});
  }

  /**
   * The open invitation a token names, checked against the e-mail lock.
   * @throws AppError 400 "invitation_invalid" for a forged, unknown, used, revoked or expired
   * token, or an e-mail other than the one it is locked to.
   */
  async check(token: string, email?: string): Promise<Invitation> {
    const [id = "", mac = ""] = token.split(".");
    const expected = Buffer.from(this.mac(id));
    const given = Buffer.from(mac);
    if (!id || given.length !== expected.length || !timingSafeEqual(given, expected))
      throw invalidInvitation();
    const invitation = await this.repo.findInvitation(id);
    if (!invitation || invitation.used_at || invitation.revoked_at || invitation.expires_at <= this.now())
      throw invalidInvitation();
    if (email !== undefined && invitation.email && invitation.email !== email)
      throw new AppError("invitation_invalid", "This invitation is for another e-mail address.");
    return invitation;
  }

  /** Uses the invitation for the e-mail signing up. @returns false when it was used or revoked meanwhile. */
  redeem(id: string, email: string): Promise<boolean> {
    return this.repo.redeemInvitation(id, email, this.now());
  }
}
