export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Outbound e-mail: SES when deployed, the in-memory outbox locally. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
