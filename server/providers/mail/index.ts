// The mail provider factory: maps configuration to the mailer every module sends through.
import path from "node:path";
import type { AppConfig } from "../../env";
import type { Mailer } from "./mail";
import { OutboxMailer, SmtpMailer } from "./nodemailer";

/**
 * The one place that maps configuration to a mailer: SMTP (nodemailer) at SMTP_URL when it is
 * set, otherwise an outbox folder of .eml files under `<dataDir>/outbox`; both send from MAIL_FROM.
 * @param log where the outbox mailer writes each message's recipient, subject and file.
 */
export function createMailer(config: AppConfig, log: (line: string) => void): Mailer {
  if (config.SMTP_URL) return new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return new OutboxMailer(path.join(config.dataDir, "outbox"), config.MAIL_FROM, log);
}
