import { randomBytes, randomInt, randomUUID } from "node:crypto";
import type { Mailer } from "../../providers/mail/mail";
import type { YouTubeComments } from "../../providers/video/youtube";
import type { AuthService } from "../auth/auth.service";
import type { SubscribeRepo } from "./subscribe.repo";

/** The same answer whatever the address, so the call cannot tell who has an account. */
export const SUBSCRIBE_ANSWER =
  "Check your e-mail: we have sent you a code and the video to comment it on. Your login details follow once the code is found.";

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

/**
 * Free subscription (spec 1, 2, 7; issue 3): e-mail a code; the person comments it on the
 * configured video; a durable background job (rows in free_subscriptions, claimed with a lease so
 * several processes and restarts are safe) checks the comments until the code appears or expires,
 * then creates a Free account (15 messages a day) and e-mails the login details.
 */
export class SubscribeService {
  constructor(
    private readonly repo: SubscribeRepo,
    private readonly auth: AuthService,
    private readonly mailer: Mailer,
    private readonly youtube: YouTubeComments,
    private readonly options: SubscribeOptions,
    private readonly log: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  private get videoUrl(): string {
    return `https://www.youtube.com/watch?v=${encodeURIComponent(this.options.videoId)}`;
  }

  /**
   * Records the request and e-mails the code (or, for an address that already has an account, a
   * note saying so). A pending request for the same address is re-sent with its code, not doubled.
   * @returns the background mail work (tests await it; the route answers at once).
   */
  request(email: string): { background: Promise<void> } {
    return { background: this.handleRequest(email).catch((error: unknown) => this.log(error)) };
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
   * Approves a request by hand (issue 9: the admin console, when the video check cannot run):
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

  /**
   * Runs the job every `intervalMs` in this process until the returned stop function is called.
   * Rows live in the database, so a restart resumes where it left off.
   */
  startWorker(intervalMs: number): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running || !this.youtube.configured || !this.options.videoId) return;
      running = true;
      this.runDue()
        .catch((error: unknown) => this.log(error))
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
