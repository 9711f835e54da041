// Sending mail with nodemailer: over SMTP when SMTP_URL is set, else as .eml files in an outbox folder (body never logged).
import fs from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import { lazyModule } from "../../lazy-module";
import type { Mailer, MailMessage } from "./mail";

/** nodemailer, loaded with the first mail (or the SMTP mailer), not at startup. */
const loadNodemailer = lazyModule<typeof import("nodemailer")>("nodemailer");

/** Sends through an SMTP server given as a URL, e.g. smtp://user:pass@host:587. */
export class SmtpMailer implements Mailer {
  readonly name = "smtp";
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = loadNodemailer().createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }
}

/**
 * Writes each message as an .eml file under `dir` (nodemailer's stream transport builds the real
 * RFC 5322 message) and logs its recipient, subject and file: the default without SMTP. The body
 * is never logged: it can hold a password-reset link, which is read from the .eml file.
 */
export class OutboxMailer implements Mailer {
  readonly name = "outbox";
  /** nodemailer's stream transport, made with the first message. */
  private transport: Transporter | undefined;

  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log: (line: string) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    this.transport ??= loadNodemailer().createTransport({ streamTransport: true, buffer: true });
    const info = await this.transport.sendMail({ from: this.from, ...message });
    await fs.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, outboxFileName(new Date(), info.messageId, message.to));
    await fs.writeFile(file, info.message as Buffer);
    this.log(`Mail to ${message.to}: "${message.subject}" written to ${file}`);
  }
}

/** A part of a file name: letters, digits, `.`, `_`, `@` and `-` kept, anything else dropped. */
const namePart = (text: string) => text.replace(/[^\w.@-]/g, "").replace(/^\.+/, "");

/**
 * An outbox file's name: `<time>-<message id>-<recipient>.eml`, e.g.
 * `2026-03-05T03-30-00-000Z-1b2c3d4e-…-ana@example.com.eml`. The time sorts the folder; the
 * message id's own part (before its `@host`) keeps names apart; the recipient says at a glance
 * whose mail it is. Only file-name-safe characters are kept.
 * @param messageId as nodemailer makes it, `<id@host>`.
 */
export function outboxFileName(time: Date, messageId: string, to: string): string {
  const stamp = time.toISOString().replace(/[:.]/g, "-");
  const id = namePart(messageId.replace(/^<|>$/g, "").split("@")[0] ?? "") || "mail";
  const recipient = namePart(to).slice(0, 100) || "unknown";
  return `${stamp}-${id}-${recipient}.eml`;
}
