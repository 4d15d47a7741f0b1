import type { WebhookSubscription } from '../domain/webhooks/subscription';

/** The outcome of one delivery attempt, as the dispatcher records it on the subscription. */
export type WebhookAttemptOutcome = { ok: true; at: Date } | { ok: false; at: Date; reason: string };

/**
 * What an owner's write also stores, in its own transaction: the answer a retry under the request's
 * `Idempotency-Key` gets, so that a write whose answer was lost is never made twice.
 */
export interface WrittenWith<Item> {
  alongside?: readonly Item[];
}

/**
 * Where subscriptions are kept: written through the API by their owner, read and updated by the dispatcher.
 * `Item` is what the store can write alongside an owner's write (see `WrittenWith`).
 */
export interface WebhookSubscriptions<Item = unknown> {
  /** Refused with the domain's `WriteConflict`, changing nothing, when the owner already holds the most allowed. */
  create(subscription: WebhookSubscription, written?: WrittenWith<Item>): Promise<void>;
  /** The owner's subscriptions, newest first. */
  listOwn(userId: number): Promise<WebhookSubscription[]>;
  /** One subscription, only if `userId` owns it. */
  getOwn(userId: number, id: string): Promise<WebhookSubscription | undefined>;
  /** False when there is no such subscription of `userId` (nothing changes). */
  delete(userId: number, id: string, written?: WrittenWith<Item>): Promise<boolean>;
  /** Replaces the secrets of an owned subscription; false when there is none. */
  replaceSecrets(
    userId: number,
    id: string,
    secrets: WebhookSubscription['secrets'],
    written?: WrittenWith<Item>,
  ): Promise<boolean>;
  /** Turns an owned subscription back on and clears its failure run; false when there is none. */
  enable(userId: number, id: string, written?: WrittenWith<Item>): Promise<boolean>;
  /** Every active subscription, for the dispatcher. */
  listActive(): Promise<WebhookSubscription[]>;
  /** Records an attempt's outcome (clears or extends the failure run); returns the subscription as it now is. */
  recordAttempt(id: string, outcome: WebhookAttemptOutcome): Promise<WebhookSubscription | undefined>;
  /** Turns a subscription off, with the reason its owner will read. */
  disable(id: string, reason: string): Promise<void>;
}
