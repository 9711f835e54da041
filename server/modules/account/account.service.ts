// Password recovery by e-mail (product.md §8's same answer for unknown addresses) and erasing an account after its confirmation.

import { createHash, randomBytes, randomUUID } from "node:crypto";
import argon2 from "argon2";
import { CONFIRM_PASSWORD_MISMATCH } from "../../../common/validation";
import type { User } from "../../db/schema";
import { badRequest, forbidden } from "../../errors";
import { msg } from "../../i18n/messages";
import type { JobQueue } from "../../jobs/queue";
import type { Mailer } from "../../providers/mail/mail";
import type { FileStorage } from "../../providers/storage/storage";
import { secretHash } from "../../security/secret-hash";
import type { AuthService } from "../auth/auth.service";
import type { AccountRepo } from "./account.repo";
import { type ExportService, exportFolder } from "./export.service";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** product.md §8: the generic answer of forgot-password, the same for known and unknown addresses. */
export const FORGOT_PASSWORD_ANSWER = msg("account.ifAccountExistsEMail");

/** The reset mail's job: retried while the mail server is away (each try makes a new code). */
const RESET_MAIL_JOB = { attempts: 5, backoffMs: 5000 };

/** The erasure mail's job, and the retry of files the erasure could not remove at once. */
const ERASE_JOB = { attempts: 5, backoffMs: 5000 };

/**
 * An account without a password (OAuth sign-up) confirms its erasure from a session signed in at
 * most this long ago (a fresh re-login), ms.
 */
export const FRESH_SIGN_IN_MS = 10 * 60_000;

/** What the erasure of an account needs besides the database (wired by the container). */
export interface ErasureDeps {
  /** The content storage (local disk or S3) the account's files are removed from. */
  storage: FileStorage;
  /** Online payments are configured (`PaymentsService.enabled`). */
  payments: { readonly enabled: boolean };
}

/** How the person confirms "Delete my account". */
export interface EraseConfirmation {
  /** The account's password; required when the account has one. */
  password?: string;
  /** For an account without a password: its e-mail (a member) or its user name (a guest). */
  confirm?: string;
}

/** Password recovery by e-mail and the erasure of an account. */
export class AccountService {
  constructor(
    private readonly repo: AccountRepo,
    private readonly auth: AuthService,
    private readonly mailer: Mailer,
    private readonly options: { publicUrl: string; resetTtlMs: number },
    /** The reset mail is a background job ("account.reset-mail"). */
    private readonly jobs: JobQueue,
    /** What "Erase my account" needs besides the database. */
    private readonly erasure: ErasureDeps,
    /** "Take my data": the exports of the user's data, routed with the account. */
    readonly exports: ExportService,
    private readonly now: () => number = Date.now,
  ) {
    jobs.define<{ email: string }>(
      "account.reset-mail",
      ({ email }) => this.sendResetMail(email),
      RESET_MAIL_JOB,
    );
    jobs.define<{ email: string; name: string }>(
      "account.erased-mail",
      (message) => this.sendErasedMail(message),
      ERASE_JOB,
    );
    jobs.define<{ files: string }>(
      "account.erase-files",
      ({ files }) => {
        const { keys, folders } = JSON.parse(files) as { keys: string[]; folders: string[] };
        return this.removeFiles(keys, folders, true);
      },
      ERASE_JOB,
    );
  }

  /**
   * The user of a bearer token, read afresh (never from the session cache: the erasure must not
   * act on a session revoked a moment ago). @returns undefined for an unknown or expired token.
   */
  sessionUser(token: string): Promise<User | undefined> {
    return this.auth.authenticate(token);
  }

  /**
   * Erases the signed-in user's account ("Erase my account"): every row naming the user
   * in every table (see `AccountRepo.eraseUser`) in one transaction, then every file of theirs in
   * the content storage (their picture, their characters' photos, each of their chats' pictures
   * and photos, the voice files of their replies that no other user's reply uses), then an e-mail
   * to a member saying it is done. Sessions and devices go with the rows, so every token of the
   * user is refused from then on (other instances' session caches drop it within their ttl).
   * Leaves one `admin_audit` line ("account.erase", the user id, the time; no personal data);
   * earlier admin actions on the account keep their lines, by id only (their e-mails blanked).
   * Not reached: voice cache files of single sentences and split parts, which no row records (they
   * are named by a hash of engine, voice and text, and shared by whoever says the same words).
   *
   * Confirmation: an account with a password gives it (the token alone must not be enough: a
   * stolen or forgotten-open session could otherwise erase the account for good). An account
   * without one has nothing secret to ask for, so it types its e-mail (a guest: its user name,
   * shown on the profile) against slips, and a member (OAuth sign-up) must also be on a session
   * signed in within `FRESH_SIGN_IN_MS`, so an old open session cannot erase it. A guest (demo)
   * cannot sign in again as the same account, and its account removes itself within a day
   * anyway, so the typed name is all it is asked. Device sign-ins belong to members with a
   * password and give it.
   *
   * Payments: with payments on, an account whose subscription is still renewing is refused until
   * it is cancelled in the customer portal (the payments port has no cancellation call, and the
   * customer must not be billed for an account that is gone); with payments off nothing is asked.
   * @param token the bearer token of the request (its sign-in time is checked).
   * @throws AppError "wrong_password" (400) when the password or the typed confirmation is wrong
   * (nothing is erased); "forbidden" (403) when a passwordless member's sign-in is not fresh or a
   * subscription still renews.
   */
  async erase(user: User, token: string, input: EraseConfirmation): Promise<void> {
    await this.checkConfirmation(user, token, input);
    if (this.erasure.payments.enabled && user.stripe_subscription_id && user.plan_ends_at == null)
      throw forbidden(msg("account.subscriptionStillRenewsCancelUnder"));
    const content = await this.repo.eraseUser(user, { id: randomUUID(), createdAt: this.now() });
    // Its tokens are gone: no cached session of it may answer (server/db/short-cache.ts).
    this.auth.userChanged(user.id);
    // The user's data exports ("Take my data") go with the rest.
    const folders = [...content.folders, exportFolder(user.id)];
    await this.removeFiles([...content.files, ...content.voice], folders, false);
    if (!user.is_demo)
      await this.jobs.enqueue("account.erased-mail", {
        email: user.email,
        name: user.full_name || user.user_name,
      });
  }

  private async checkConfirmation(user: User, token: string, input: EraseConfirmation): Promise<void> {
    if (user.password_hash) {
      const valid = await argon2.verify(user.password_hash, input.password ?? "").catch(() => false);
      if (!valid) throw badRequest(msg("account.passwordNotCorrect"), "wrong_password");
      return;
    }
    const typed = (input.confirm ?? "").trim().toLowerCase();
    const expected = (user.is_demo ? user.user_name : user.email).trim().toLowerCase();
    if (!typed || typed !== expected)
      throw badRequest(
        user.is_demo ? msg("account.typeUserNameExactlyAs") : msg("account.typeEMailExactlyAs"),
        "wrong_password",
      );
    if (user.is_demo) return;
    const startedAt = await this.repo.sessionStartedAt(secretHash(token));
    if (startedAt === undefined || this.now() - startedAt > FRESH_SIGN_IN_MS)
      throw forbidden(msg("account.safetySignOutSignAgain"));
  }

  /**
   * Removes files and folders from the content storage. What fails is queued as a job
   * ("account.erase-files", retried) unless this already is that job, which then throws to retry.
   */
  private async removeFiles(keys: string[], folders: string[], isRetry: boolean): Promise<void> {
    const { storage } = this.erasure;
    const results = await Promise.all([
      ...keys.map((key) =>
        storage.remove(key).then(
          () => ({ key, folder: false, ok: true }),
          () => ({ key, folder: false, ok: false }),
        ),
      ),
      ...folders.map((key) =>
        storage.removeFolder(key).then(
          () => ({ key, folder: true, ok: true }),
          () => ({ key, folder: true, ok: false }),
        ),
      ),
    ]);
    const failed = results.filter((r) => !r.ok);
    if (failed.length === 0) return;
    const rest = {
      keys: failed.filter((r) => !r.folder).map((r) => r.key),
      folders: failed.filter((r) => r.folder).map((r) => r.key),
    };
    if (isRetry) throw new Error(`account erasure: ${failed.length} files not removed yet`);
    await this.jobs.enqueue("account.erase-files", { files: JSON.stringify(rest) });
  }

  private async sendErasedMail(message: { email: string; name: string }): Promise<void> {
    await this.mailer.send({
      to: message.email,
      subject: "Your account has been deleted",
      text: [
        `Hello ${message.name},`,
        "",
        "As you asked, your account has been deleted: your characters, chats, pictures, voice messages and everything the companions remembered are gone, and you have been signed out everywhere.",
        "",
        "If you did not ask for this, please contact us by replying to this e-mail.",
      ].join("\n"),
    });
  }

  /**
   * Starts a password reset. Only queues a job carrying the address, before any
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
    if (password !== retyped) throw badRequest(CONFIRM_PASSWORD_MISMATCH);
    const userId = await this.repo.consumeReset(sha256(code), this.now());
    if (!userId) throw badRequest(msg("account.resetLinkInvalidExpiredAsk"), "reset_code");
    await this.auth.setPasswordAndRevokeSessions(userId, password);
  }
}
