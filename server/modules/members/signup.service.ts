// Sign-up by e-mail code (REGISTRATION=closed|invite|open) and its mails.
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { AppError, forbidden } from "../../errors";
import { msg } from "../../i18n/messages";
import type { JobQueue } from "../../jobs/queue";
import type { Mailer } from "../../providers/mail/mail";
import type { SignIn } from "../auth/auth.service";
import { type InvitationsService, invalidInvitation } from "./invitations";
import type { MembersRepo } from "./members.repo";
import { emailTaken, type MembersService } from "./members.service";

/** Who may sign up (REGISTRATION): nobody, invited people, anyone. */
export type RegistrationMode = "closed" | "invite" | "open";

/** How long a sign-up code works, ms. */
export const SIGNUP_CODE_TTL_MS = 15 * 60_000;
/** Tries of one code; then a new one must be asked for. */
export const SIGNUP_CODE_TRIES = 5;

/** The answer of sign-up/start, the same whether the e-mail has an account or not. */
export const SIGNUP_START_ANSWER = msg("members.weHaveSent6Digit");

/** The refusal of a wrong, used, expired or worn-out code. */
const invalidCode = () => new AppError("signup_code", msg("members.codeNotValidExpiredAsk"));

/** The mail job: retried while the mail server is away (each try makes a new code). */
const SIGNUP_MAIL_JOB = { attempts: 5, backoffMs: 5000 };

const codeHash = (email: string, code: string) =>
  createHash("sha256").update(`signup:${email}:${code}`).digest("hex");

/**
 * Sign-up (product.md §2 "Sign-up"): `start` mails a 6-digit code (hashed, 15 minutes, 5
 * tries), `finish` checks it and creates the account on the Free plan, signed in. With
 * REGISTRATION=closed nobody signs up, `invite` needs an invitation, `open` none; an
 * invitation works in every mode. Like the password recovery, `start` answers the same for
 * every address: the lookup and the mail happen in a job, and an address that has an account
 * gets a "you already have an account" mail instead of a code.
 */
export class SignupService {
  constructor(
    private readonly repo: MembersRepo,
    private readonly members: MembersService,
    private readonly invitations: InvitationsService,
    private readonly mailer: Mailer,
    private readonly jobs: JobQueue,
    private readonly options: { mode: RegistrationMode; publicUrl: string },
    private readonly now: () => number = Date.now,
  ) {
    jobs.define<{ email: string }>(
      "accounts.signup-mail",
      ({ email }) => this.sendMail(email),
      SIGNUP_MAIL_JOB,
    );
  }

  /** The configured REGISTRATION mode. */
  get mode(): RegistrationMode {
    return this.options.mode;
  }

  /**
   * Whether this e-mail may sign up now: with an invitation (checked, e-mail lock included) in
   * any mode, without one only when the mode is open.
   * @returns the invitation's id, or undefined for an open sign-up.
   * @throws AppError "registration_closed" (403) or "invitation_invalid" (400).
   */
  private async admit(email: string, invite?: string): Promise<string | undefined> {
    if (invite) return (await this.invitations.check(invite, email)).id;
    if (this.options.mode === "open") return undefined;
    if (this.options.mode === "invite")
      throw forbidden(msg("members.signUpServerNeedsInvitation"), "registration_closed");
    throw forbidden(msg("members.signUpClosedServerAsk"), "registration_closed");
  }

  /**
   * Checks the mode and the invitation, then queues the mail job (the answer does not depend on
   * whether the e-mail has an account). @throws as `admit`.
   */
  async start(email: string, invite?: string): Promise<void> {
    await this.admit(email, invite);
    await this.jobs.enqueue("accounts.signup-mail", { email });
  }

  private async sendMail(email: string): Promise<void> {
    const now = this.now();
    await this.repo.deleteExpiredSignupCodes(now);
    if (await this.repo.emailTaken(email)) {
      await this.mailer.send({
        to: email,
        subject: "You already have an account",
        text: [
          "Hello,",
          "",
          "Someone asked to create an account with this e-mail, but you already have one. Sign in at:",
          `${this.options.publicUrl}/login`,
          "",
          "If you forgot your password, choose 'Forgot password?' there. If you did not ask, ignore this e-mail.",
        ].join("\n"),
      });
      return;
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await this.repo.replaceSignupCode({
      email,
      code_hash: codeHash(email, code),
      expires_at: now + SIGNUP_CODE_TTL_MS,
      tries: 0,
      created_at: now,
    });
    // The code stays out of the subject: the outbox logs each mail's recipient and subject.
    await this.mailer.send({
      to: email,
      subject: "Your sign-up code",
      text: [
        "Hello,",
        "",
        `Your code to create an account is ${code}.`,
        "",
        `It works once and expires in ${SIGNUP_CODE_TTL_MS / 60_000} minutes. If you did not ask for it, ignore this e-mail.`,
      ].join("\n"),
    });
  }

  /**
   * Creates the account with the mailed code and signs it in; the code and the invitation are used.
   * @throws as `admit`; AppError 400 "signup_code" for a wrong, expired, used or worn-out code
   * (each wrong code uses one of its 5 tries); 409 "email_taken" when the e-mail got an account.
   */
  async finish(input: {
    email: string;
    code: string;
    password: string;
    name: string;
    invite?: string;
  }): Promise<SignIn> {
    const { email } = input;
    const invitationId = await this.admit(email, input.invite);
    const row = await this.repo.claimSignupTry(email, this.now(), SIGNUP_CODE_TRIES);
    const given = Buffer.from(codeHash(email, input.code.trim()));
    if (!row || !timingSafeEqual(given, Buffer.from(row.code_hash))) throw invalidCode();
    if (!(await this.repo.consumeSignupCode(email, row.code_hash))) throw invalidCode();
    if (await this.repo.emailTaken(email)) throw emailTaken();
    if (invitationId && !(await this.invitations.redeem(invitationId, email))) throw invalidInvitation();
    const user = await this.members.create({ email, password: input.password, name: input.name });
    return this.members.signIn(user);
  }
}
