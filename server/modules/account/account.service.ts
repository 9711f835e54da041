import { createHash, randomBytes, randomUUID } from "node:crypto";
import { badRequest } from "../../errors";
import type { JobQueue } from "../../jobs/queue";
import type { Mailer } from "../../providers/mail/mail";
import type { AuthService } from "../auth/auth.service";
import type { AccountRepo } from "./account.repo";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** spec 8: the generic answer of forgot-password, the same for known and unknown addresses. */
export const FORGOT_PASSWORD_ANSWER =
  "If an account exists for this e-mail, we have sent it a link to reset the password.";

/** The reset mail's job: retried while the mail server is away (each try makes a new code). */
const RESET_MAIL_JOB = { attempts: 5, backoffMs: 5000 };

/** Password recovery by e-mail (issue 3). */
export class AccountService {
  constructor(
    private readonly repo: AccountRepo,
    private readonly auth: AuthService,
    private readonly mailer: Mailer,
    private readonly options: { publicUrl: string; resetTtlMs: number },
    /** The reset mail is a background job ("account.reset-mail", issue 15). */
    private readonly jobs: JobQueue,
    private readonly now: () => number = Date.now,
  ) {
    jobs.define<{ email: string }>(
      "account.reset-mail",
      ({ email }) => this.sendResetMail(email),
      RESET_MAIL_JOB,
    );
  }

  /**
   * Starts a password reset. Only queues a job (issue 15) carrying the address, before any
   * lookup, so the answer, its status and its timing are the same for known and unknown
   * addresses; the lookup and the e-mail happen in the job. A known address receives a link
   * with a single-use 256-bit code valid 15 minutes (the code never leaves this server: the job
   * makes it). Never rejects (a job that cannot be queued is logged).
   * @returns when the job is queued (tests then await `jobs.idle()`; the route need not wait).
   */
  requestReset(email: string): Promise<void> {
    return this.jobs.enqueue("account.reset-mail", { email });
  }

  private async sendResetMail(email: string): Promise<void> {
    const user = await this.repo.findMemberByEmail(email);
    if (!user) return;
    const now = this.now();
    const code = randomBytes(32).toString("base64url");
    await this.repo.voidResets(user.id, now);
    await this.repo.insertReset({
      id: randomUUID(),
      user_id: user.id,
      code_hash: sha256(code),
      expires_at: now + this.options.resetTtlMs,
      created_at: now,
    });
    const minutes = Math.round(this.options.resetTtlMs / 60_000);
    await this.mailer.send({
      to: user.email,
      subject: "Reset your password",
      text: [
        `Hello ${user.full_name || user.user_name},`,
        "",
        "Someone asked to reset the password of your account. To choose a new one, open:",
        `${this.options.publicUrl}/reset-password/${code}`,
        "",
        `The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.`,
      ].join("\n"),
    });
  }

  /**
   * Sets a new password with a reset code and ends every session of the account.
   * @throws AppError 400 when the passwords differ or are too short, or the code is unknown,
   * used or expired.
   */
  async resetPassword(code: string, password: string, retyped: string): Promise<void> {
    if (password !== retyped) throw badRequest("New and Confirm password do not match.");
    const userId = await this.repo.consumeReset(sha256(code), this.now());
    if (!userId)
      throw badRequest("This reset link is invalid or has expired. Please ask for a new one.", "reset_code");
    await this.auth.setPasswordAndRevokeSessions(userId, password);
  }
}
