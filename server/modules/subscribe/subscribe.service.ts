// Free subscription (product.md §1, §7): a code mailed to the person, commented on the video, checked by a periodic job.
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { msg } from "../../i18n/messages";
import type { JobQueue } from "../../jobs/queue";
import type { Mailer } from "../../providers/mail/mail";
import type { YouTubeComments } from "../../providers/video/youtube";
import type { AuthService } from "../auth/auth.service";
import type { SubscribeRepo } from "./subscribe.repo";

/** The same answer whatever the address, so the call cannot tell who has an account. */
export const SUBSCRIBE_ANSWER = msg("subscribe.checkEMailWeHave");

export interface SubscribeOptions {
  videoId: string;
  ttlMs: number;
  pollMs: number;
  publicUrl: string;
}

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/** A code people can type: "CMP-" and 8 characters without look-alikes (40 bits). */
function newCode(): string {
  let code = "";
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `CMP-${code}`;
}

/** The code mail's job: retried while the mail server is away. */
const REQUEST_MAIL_JOB = { attempts: 5, backoffMs: 5000 };

/**
 * Free subscription (product.md §1, 2, 7): e-mail a code (a background job); the
 * person comments it on the configured video; a periodic job (`runDue`, scheduled in
 * server/container.ts; rows in free_subscriptions, each claimed with a lease so several processes
 * and restarts are safe) checks the comments until the code appears or expires, then creates a
 * Free account (15 messages a day) and e-mails the login details.
 */
export class SubscribeService {
  constructor(
    private readonly repo: SubscribeRepo,
    private readonly auth: AuthService,
    private readonly mailer: Mailer,
    private readonly youtube: YouTubeComments,
    private readonly options: SubscribeOptions,
    private readonly log: (error: unknown) => void,
    /** The code mail is a background job ("subscribe.request-mail"). */
    private readonly jobs: JobQueue,
    private readonly now: () => number = Date.now,
  ) {
    jobs.define<{ email: string }>(
      "subscribe.request-mail",
      ({ email }) => this.handleRequest(email),
      REQUEST_MAIL_JOB,
    );
  }

  /**
   * Whether the free subscription is offered: a video to comment the code on is configured.
   * Without one nothing is stored or mailed and the SPA does not show the form.
   */
  get offered(): boolean {
    return Boolean(this.options.videoId);
  }

  /** Whether the comment check can run: a YouTube API key and a video are configured. */
  get checksComments(): boolean {
    return this.youtube.configured && Boolean(this.options.videoId);
  }

  private get videoUrl(): string {
    return `https://www.youtube.com/watch?v=${encodeURIComponent(this.options.videoId)}`;
  }

  /**
   * Queues the request's job, which records it and e-mails the code (or, for an address that
   * already has an account, a note saying so). A pending request for the same address is re-sent
   * with its code, not doubled. Never rejects (a job that cannot be queued is logged).
   * @returns when the job is queued (tests then await `jobs.idle()`; the route answers at once).
   */
  request(email: string): Promise<void> {
    return this.jobs.enqueue("subscribe.request-mail", { email });
  }

  private async handleRequest(email: string): Promise<void> {
    const now = this.now();
    if (await this.repo.accountIdByEmail(email)) {
      await this.mailer.send({
        to: email,
        subject: "You already have an account",
        text: `There is already an account for this e-mail. Sign in at ${this.options.publicUrl}/login, or reset your password there if you forgot it.`,
      });
      return;
    }
    let pending = await this.repo.findPending(email, now);
    if (!pending) {
      pending = {
        id: randomUUID(),
        email,
        code: newCode(),
        status: "pending",
        expires_at: now + this.options.ttlMs,
        next_check_at: now + this.options.pollMs,
        locked_until: 0,
        checks: 0,
        last_error: "",
        user_id: null,
        created_at: now,
      };
      await this.repo.insert(pending);
    }
    const hours = Math.round(this.options.ttlMs / 3_600_000);
    await this.mailer.send({
      to: email,
      subject: "Your free chat code",
      text: [
        `Your code is: ${pending.code}`,
        "",
        `Post it as a comment on this video: ${this.videoUrl}`,
        "",
        `We check the comments regularly; once we find your code we e-mail your login details. The code is valid for ${hours} hours.`,
      ].join("\n"),
    });
  }

  /**
   * One pass of the background job: checks every due pending request once.
   * @returns how many requests were verified (accounts created) in this pass.
   */
  async runDue(): Promise<number> {
    const now = this.now();
    await this.repo.expirePending(now);
    const due = await this.repo.due(now, 20);
    let verified = 0;
    for (const row of due) {
      // The lease: only the process that moves locked_until works on the row.
      if (!(await this.repo.lease(row.id, now, now + 60_000))) continue;
      try {
        if (await this.youtube.hasCommentContaining(this.options.videoId, row.code)) {
          await this.verify(row.id, row.email);
          verified += 1;
        } else {
          await this.reschedule(row.id, row.checks + 1, "");
        }
      } catch (error) {
        this.log(error);
        await this.reschedule(row.id, row.checks + 1, String(error).slice(0, 300));
      }
    }
    return verified;
  }

  private async reschedule(id: string, checks: number, lastError: string): Promise<void> {
    await this.repo.reschedule(id, {
      checks,
      last_error: lastError,
      next_check_at: this.now() + this.options.pollMs,
    });
  }

  /**
   * Approves a request by hand (the admin console, when the video check cannot run):
   * creates the Free account and mails the login details as if the code had been found.
   * @returns the request's e-mail, or undefined when there is no such request or it was
   *   already verified.
   */
  async approve(id: string): Promise<string | undefined> {
    const row = await this.repo.findById(id);
    if (!row || row.status === "verified") return undefined;
    await this.verify(row.id, row.email);
    return row.email;
  }

  private async verify(id: string, email: string): Promise<void> {
    let userId = await this.repo.accountIdByEmail(email);
    if (!userId) {
      const password = randomBytes(9).toString("base64url");
      const user = await this.auth.createAccount({ email, password, fullName: "", planName: "Free" });
      userId = user.id;
      await this.mailer.send({
        to: email,
        subject: "Your login details",
        text: [
          "We found your code: welcome!",
          "",
          `Sign in at ${this.options.publicUrl}/login`,
          `E-mail: ${email}`,
          `Password: ${password}`,
          "",
          "You can chat up to 15 messages a day. Change your password after signing in.",
        ].join("\n"),
      });
    }
    await this.repo.markVerified(id, userId ?? null);
  }
}
