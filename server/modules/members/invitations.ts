// Invitation links made in the admin console or by `npm run users -- invite`: one use, an expiry, an optional e-mail lock, mailed to that e-mail.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { Invitation as InvitationView } from "../../../common/api";
import type { User } from "../../db/schema";
import { AppError, badRequest, notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import type { JobQueue } from "../../jobs/queue";
import type { Mailer } from "../../providers/mail/mail";
import type { Invitation, MembersRepo } from "./members.repo";

/** The days an invitation may last (the console's choice). */
export const INVITATION_DAYS = { min: 1, max: 30 } as const;

/** Who made an invitation: an admin, or the owner at the server's command line (`npm run users`). */
export type Inviter = Pick<User, "id" | "email">;

/** How an invitation's mail leaves: queued as a job (the server), or sent at once (the CLI). */
export interface InvitationMail {
  mailer: Mailer;
  /** The server's job queue; without it the mail is sent at once and a failure goes to `logError`. */
  jobs?: JobQueue;
  logError: (error: unknown) => void;
}

/** The mail job: retried while the mail server is away. */
const INVITATION_MAIL_JOB = { attempts: 5, backoffMs: 5000 };

/** The refusal of an unknown, used, revoked or expired invitation. */
export const invalidInvitation = () =>
  new AppError("invitation_invalid", msg("members.invitationLinkInvalidUsedRevoked"));

/**
 * Invitations to sign up (`/signup?invite=<token>`). The token is `<id>.<mac>`, the mac an
 * HMAC-SHA256 of the id under the server's secret (CONTENT_SECRET or DATA_DIR/content-secret),
 * compared in constant time: nothing secret is stored, so the console can show a link again.
 * A link works in every REGISTRATION mode until it is used, revoked or expired. An invitation
 * locked to an e-mail is mailed to it. Links start with PUBLIC_URL when it is set, else with the
 * origin the caller gives (the browser's own, so the console shows a link that opens there).
 */
export class InvitationsService {
  constructor(
    private readonly repo: MembersRepo,
    private readonly options: {
      secret: string;
      /** PUBLIC_URL, or "" when it is not set (links then start with the caller's origin). */
      publicUrl: string;
      /** The origin when neither PUBLIC_URL nor the caller's is known (http://localhost:PORT). */
      defaultOrigin: string;
    },
    private readonly mail: InvitationMail,
    private readonly now: () => number = Date.now,
  ) {
    mail.jobs?.define<{ id: string; origin: string }>(
      "accounts.invitation-mail",
      ({ id, origin }) => this.sendMail(id, origin),
      INVITATION_MAIL_JOB,
    );
  }

  private mac(id: string): string {
    return createHmac("sha256", this.options.secret).update(`invitation:${id}`).digest("base64url");
  }

  /** The origin links start with: PUBLIC_URL, else the caller's, else http://localhost:PORT. */
  private origin(given?: string): string {
    return this.options.publicUrl || given || this.options.defaultOrigin;
  }

  private view(invitation: Invitation, origin: string): InvitationView {
    const token = `${invitation.id}.${this.mac(invitation.id)}`;
    return {
      id: invitation.id,
      email: invitation.email,
      expiresAt: invitation.expires_at,
      createdAt: invitation.created_at,
      link: `${origin}/signup?invite=${encodeURIComponent(token)}`,
    };
  }

  /**
   * Makes an invitation lasting `days` (1-30), locked to `email` when one is given (audit
   * "invitation.create"), and mails its link to that e-mail (a job on the server).
   * @param origin the caller's origin (the browser's, for the console), used without PUBLIC_URL.
   * @throws AppError 400 when `days` is outside 1-30.
   */
  async create(
    admin: Inviter,
    input: { email?: string; days: number },
    origin?: string,
  ): Promise<InvitationView> {
    const { min, max } = INVITATION_DAYS;
    if (!Number.isInteger(input.days) || input.days < min || input.days > max)
      throw badRequest(msg("members.invitationLastsFromDays", { min, max }));
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
    const base = this.origin(origin);
    if (invitation.email) await this.deliver(invitation.id, base);
    return this.view(invitation, base);
  }

  /** Queues the invitation's mail (the server), or sends it at once (the CLI; a failure is logged). */
  private async deliver(id: string, origin: string): Promise<void> {
    if (this.mail.jobs) {
      await this.mail.jobs.enqueue("accounts.invitation-mail", { id, origin });
      return;
    }
    await this.sendMail(id, origin).catch(this.mail.logError);
  }

  /** Mails the link of an invitation still open to the e-mail it is locked to; nothing otherwise. */
  private async sendMail(id: string, origin: string): Promise<void> {
    const invitation = await this.repo.findInvitation(id);
    const now = this.now();
    if (!invitation?.email || invitation.used_at || invitation.revoked_at || invitation.expires_at <= now)
      return;
    const days = Math.max(1, Math.round((invitation.expires_at - invitation.created_at) / 86_400_000));
    await this.mail.mailer.send({
      to: invitation.email,
      subject: "You are invited to create an account",
      text: [
        "Hello,",
        "",
        "You are invited to create an account. Open this link and sign up with this e-mail address:",
        this.view(invitation, origin).link,
        "",
        `The link works once, for ${days} day${days === 1 ? "" : "s"}. If you did not expect it, ignore this e-mail.`,
      ].join("\n"),
    });
  }

  /**
   * The invitations still open (not used, revoked or expired), newest first.
   * @param origin the caller's origin (the browser's), used without PUBLIC_URL.
   */
  async listOpen(origin?: string): Promise<InvitationView[]> {
    const base = this.origin(origin);
    return (await this.repo.openInvitations(this.now())).map((i) => this.view(i, base));
  }

  /** Revokes an open invitation (audit "invitation.revoke"). @throws AppError 404 when there is no open one with this id. */
  async revoke(admin: Inviter, id: string): Promise<void> {
    if (!(await this.repo.revokeInvitation(id, this.now())))
      throw notFound(msg("members.invitationNotFound"));
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
      throw new AppError("invitation_invalid", msg("members.invitationAnotherEMailAddress"));
    return invitation;
  }

  /** Uses the invitation for the e-mail signing up. @returns false when it was used or revoked meanwhile. */
  redeem(id: string, email: string): Promise<boolean> {
    return this.repo.redeemInvitation(id, email, this.now());
  }
}
