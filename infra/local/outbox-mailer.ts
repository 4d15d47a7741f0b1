import type { Clock } from '../../shared/ports/clock';
import type { MailMessage, Mailer } from '../../shared/ports/mailer';

/** Locally, mail is kept in memory and shown by `GET /_local/outbox`, oldest first. */
export class OutboxMailer implements Mailer {
  readonly messages: (MailMessage & { sentAt: string })[] = [];

  constructor(private readonly clock: Clock) {}

  async send(message: MailMessage): Promise<void> {
    this.messages.push({ ...message, sentAt: this.clock.now().toISOString() });
  }
}
