import type { LimitReached } from '../../shared/domain/delivery/limit-reached';
import type { LimitChanged } from '../../shared/domain/history/limit-changed';
import type { EventPublisher } from '../../shared/ports/event-publisher';
import type { DeadLetterDetails, DeadLetterSink } from '../../shared/ports/dead-letters';

/**
 * Locally, events are kept in memory, oldest first: `GET /_local/events` shows the LimitReached events and
 * `GET /_local/limit-changes` the LimitChanged ones.
 */
export class InMemoryEvents implements EventPublisher {
  readonly published: LimitReached[] = [];
  readonly changes: LimitChanged[] = [];

  async publishLimitReached(events: readonly LimitReached[]): Promise<void> {
    this.published.push(...events);
  }

  async publishLimitChanged(events: readonly LimitChanged[]): Promise<void> {
    this.changes.push(...events);
  }
}

/** Locally, dead-lettered messages are kept in memory with their reasons. */
export class InMemoryDeadLetters implements DeadLetterSink {
  readonly messages: { body: string; reason: string; details?: DeadLetterDetails }[] = [];

  async send(body: string, reason: string, details?: DeadLetterDetails): Promise<void> {
    this.messages.push({ body, reason, ...(details ? { details } : {}) });
  }
}
