// The contact form of the public pages (product.md §7): storing the message and mailing it.
import { randomUUID } from "node:crypto";
import type { JobQueue } from "../../jobs/queue";
import type { Mailer } from "../../providers/mail/mail";
import type { SiteRepo } from "./site.repo";

export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** The contact mail's job: retried while the mail server is away. */
const CONTACT_MAIL_JOB = { attempts: 5, backoffMs: 5000 };

/** The contact call of the public pages (product.md §7 "Public pages"). */
export class SiteService {
  constructor(
    private readonly repo: SiteRepo,
    private readonly mailer: Mailer,
    private readonly adminEmail: string,
    /** The mail to the admin is a background job ("site.contact-mail"). */
    private readonly jobs: JobQueue,
    private readonly now: () => number = Date.now,
  ) {
    jobs.define<{ subject: string; text: string }>(
      "site.contact-mail",
      ({ subject, text }) => this.mailer.send({ to: this.adminEmail, subject, text }),
      CONTACT_MAIL_JOB,
    );
  }

  /**
   * Stores a contact message, then queues its e-mail to the admin address (retried while the
   * mail server is away; the answer does not wait for it). The message is kept even when the mail
   * cannot be sent, so nothing is lost (the admin console lists it).
   */
  async contact(input: ContactInput): Promise<void> {
    await this.repo.insertContact({ id: randomUUID(), ...input, created_at: this.now() });
    await this.jobs.enqueue("site.contact-mail", {
      subject: `Contact: ${input.subject}`,
      text: `From: ${input.name} <${input.email}>\n\n${input.message}`,
    });
  }
}
