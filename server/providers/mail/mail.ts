// Outgoing mail behind one interface: the message, sent by SMTP or written to an outbox folder.
/** An e-mail to send. `text` is the plain-text body (every mail has one). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Outgoing mail behind one interface: SMTP (nodemailer) when SMTP_URL is set, otherwise an
 * outbox folder of .eml files (recipient, subject and file logged, never the body), so flows work
 * on a fresh machine.
 */
export interface Mailer {
  readonly name: string;
  /** @throws when the message cannot be handed over (SMTP refused, disk full). */
  send(message: MailMessage): Promise<void>;
}
