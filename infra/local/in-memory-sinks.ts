import type { LimitReached } from '../../shared/domain/delivery/limit-reached';
import type { EventPublisher } from '../../shared/ports/event-publisher';
import type { DeadLetterSink } from '../../shared/ports/dead-letters';

/** Locally, LimitReached events are kept in memory and shown by `GET /_local/events`, oldest first. */
export class InMemoryEvents implements EventPublisher {
  readonly published: LimitReached[] = [];

  async publishLimitReached(events: readonly LimitReached[]): Promise<void> {
    this.published.push(...events);
  }
}

/** Locally, dead-lettered messages are kept in memory with their reasons. */
export class InMemoryDeadLetters implements DeadLetterSink {
  readonly messages: { body: string; reason: string }[] = [];

  async send(body: string, reason: string): Promise<void> {
    this.messages.push({ body, reason });
  }
}
