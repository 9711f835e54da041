import { randomUUID } from "node:crypto";
import type { Mailer } from "../../providers/mail/mail";
import type { SiteRepo } from "./site.repo";

export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** The contact call of the public pages (spec 7 "Public pages", issue 3). */
export class SiteService {
  constructor(
    private readonly repo: SiteRepo,
    private readonly mailer: Mailer,
    private readonly adminEmail: string,
    private readonly log: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Stores a contact message, then e-mails it to the admin address. The message is kept even
   * when the mail cannot be sent (logged), so nothing is lost.
   */
  async contact(input: ContactInput): Promise<void> {
    await this.repo.insertContact({ id: randomUUID(), ...input, created_at: this.now() });
    try {
      await this.mailer.send({
        to: this.adminEmail,
        subject: `Contact: ${input.subject}`,
        text: `From: ${input.name} <${input.email}>\n\n${input.message}`,
      });
    } catch (error) {
      this.log(error);
    }
  }
}
