import type { LimitReached } from '../../shared/domain/delivery/limit-reached';
import type { LimitChanged } from '../../shared/domain/history/limit-changed';
import type { EventPublisher } from '../../shared/ports/event-publisher';
import type { DeadLetterDetails, DeadLetterSink } from '../../shared/ports/dead-letters';
import type { DiscardedBatch } from './stream-mapping';

/**
 * Locally, events are kept in memory, oldest first: `GET /_local/events` shows the LimitReached events and
 * `GET /_local/limit-changes` the LimitChanged ones.
 */
export class InMemoryEvents implements EventPublisher {
  readonly published: LimitReached[] = [];
  readonly changes: LimitChanged[] = [];
  /** What the bus's rules would be sent (the webhook dispatcher's events queue). */
  readonly rules: ((detailType: 'LimitReached' | 'LimitChanged', events: readonly object[]) => void)[] = [];

  async publishLimitReached(events: readonly LimitReached[]): Promise<void> {
    this.published.push(...events);
    for (const rule of this.rules) rule('LimitReached', events);
  }

  async publishLimitChanged(events: readonly LimitChanged[]): Promise<void> {
    this.changes.push(...events);
    for (const rule of this.rules) rule('LimitChanged', events);
  }
}

/** Locally, dead-lettered messages are kept in memory with their reasons. */
export class InMemoryDeadLetters implements DeadLetterSink {
  readonly messages: { body: string; reason: string; details?: DeadLetterDetails }[] = [];

  async send(body: string, reason: string, details?: DeadLetterDetails): Promise<void> {
    this.messages.push({ body, reason, ...(details ? { details } : {}) });
  }
}

/** Who put a dead letter in the history-events queue: the consumer itself, or its trigger giving a batch up. */
export type StreamDeadLetterSource = 'history-events' | 'table-stream-trigger';

/**
 * Locally, the table stream's dead-letter queue: the records the consumer could not decode or judge, and the
 * batches the trigger gave up on (its on-failure destination), oldest first.
 */
export class InMemoryStreamDeadLetters implements DeadLetterSink {
  readonly letters: { source: StreamDeadLetterSource; reason: string; body: string }[] = [];

  async send(body: string, reason: string): Promise<void> {
    this.letters.push({ source: 'history-events', reason, body });
  }

  discarded(batch: DiscardedBatch): void {
    this.letters.push({ source: 'table-stream-trigger', reason: batch.reason, body: JSON.stringify(batch) });
  }
}
