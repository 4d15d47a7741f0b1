import type { WebhookSubscription } from '../domain/webhooks/subscription';
import type { WebhookRoute } from '../domain/webhooks/subscription-route';

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
  /**
   * An owner's change (`read` as it was read, `next` as it is to be): saved on condition that no other change came
   * between, else the domain's `WriteConflict` (read again and judge again); false when it is gone. What fan-out
   * matches against follows in the same write.
   */
  change(read: WebhookSubscription, next: WebhookSubscription, written?: WrittenWith<Item>): Promise<boolean>;
  /** The routes of these users' active subscriptions, as they stand now: what fan-out matches an event against. */
  routesOf(userIds: readonly number[]): Promise<WebhookRoute[]>;
  /**
   * Records an attempt's outcome on the subscription as read: a failure extends its failure run, a success ends one.
   * Writes only what changes (a success with no run writes nothing). The subscription as it now is.
   */
  recordAttempt(read: WebhookSubscription, outcome: WebhookAttemptOutcome): Promise<WebhookSubscription | undefined>;
  /** Turns a subscription off, with the reason its owner will read; fan-out no longer finds it. */
  disable(userId: number, id: string, reason: string): Promise<void>;
}
