import { AsyncLocalStorage } from 'node:async_hooks';
import type { WebhookAttemptResult } from '../../shared/ports/webhook-deliveries';
import type { RecordOutcome } from '../../shared/webhooks/dispatch-batch';

export interface LocalDeliveryAttempt {
  at: string;
  ok: boolean;
  status?: number;
  error?: string;
}

/** One delivery as `GET /_local/webhook-deliveries` lists it: one entry, whichever lane it moved through. */
export interface LocalDelivery {
  id: string;
  subscriptionId: string;
  event: string;
  webhookId?: string;
  state: 'pending' | 'delivered' | 'skipped' | 'deadLettered';
  /** The lane it waits in or was last attempted in: `slow` once its subscription failed. */
  lane: 'fast' | 'slow';
  reason?: string;
  attempts: LocalDeliveryAttempt[];
  nextAttemptAt?: string;
}

/**
 * The deliveries the local dispatcher made, by the id of their first message: a delivery moved to the slow lane is a
 * new message there, listed under the same entry. The entry of the record being handled is known to every call it
 * makes (the attempt it records, the message it moves), however many records are in flight at once.
 */
export class LocalDeliveryList {
  private readonly entries = new Map<string, LocalDelivery>();
  private readonly handling = new AsyncLocalStorage<LocalDelivery | undefined>();

  list(): LocalDelivery[] {
    return [...new Set(this.entries.values())];
  }

  /** A new message of a delivery: the entry of the record being handled when it moves one, else a new entry. */
  track(messageId: string, body: string, lane: LocalDelivery['lane']): void {
    const moved = this.handling.getStore();
    if (moved) {
      moved.lane = lane;
      this.entries.set(messageId, moved);
      return;
    }
    const { subscriptionId, kind } = JSON.parse(body) as { subscriptionId: string; kind: string };
    this.entries.set(messageId, { id: messageId, subscriptionId, event: kind, state: 'pending', lane, attempts: [] });
  }

  /** Runs the handling of one message, with its entry known to what it calls. */
  handle<Result>(messageId: string, work: () => Promise<Result>): Promise<Result> {
    return this.handling.run(this.entries.get(messageId), work);
  }

  attempted(at: string, result: WebhookAttemptResult): void {
    this.handling
      .getStore()
      ?.attempts.push(
        result.ok
          ? { at, ok: true, status: result.status }
          : { at, ok: false, ...(result.status !== undefined ? { status: result.status } : {}), error: result.reason },
      );
  }

  /** The entry of the record being handled (or of `messageId`) went to the dead-letter queue. */
  deadLettered(messageId?: string): void {
    const entry = messageId === undefined ? this.handling.getStore() : this.entries.get(messageId);
    if (entry) entry.state = 'deadLettered';
  }

  /** The id of the message that carries an entry now (the last it moved to), for when it comes in sight again. */
  currentMessageOf(messageId: string): string | undefined {
    const entry = this.entries.get(messageId);
    return [...this.entries].findLast(([, candidate]) => candidate === entry)?.[0];
  }

  /** The entry after its message was handled; `nextAttemptAt` (ms) when its next attempt waits. */
  settle(outcome: RecordOutcome, nextAttemptAt: number | undefined): void {
    const entry = this.entries.get(outcome.messageId);
    if (!entry || outcome.kind === 'fanOut' || entry.state === 'deadLettered') return;
    delete entry.nextAttemptAt;
    if (outcome.kind !== 'delivery') entry.reason = outcome.reason;
    else if (outcome.outcome.state === 'skipped' || outcome.outcome.state === 'deferred')
      entry.reason = outcome.outcome.reason;
    if (outcome.kind === 'delivery' && 'webhookId' in outcome.outcome) entry.webhookId = outcome.outcome.webhookId;
    const state = outcome.kind === 'delivery' ? outcome.outcome.state : undefined;
    if (outcome.kind === 'deadLettered') entry.state = 'deadLettered';
    else entry.state = state === 'delivered' || state === 'skipped' ? state : 'pending';
    if (entry.state === 'pending' && nextAttemptAt !== undefined)
      entry.nextAttemptAt = new Date(nextAttemptAt).toISOString();
  }
}
