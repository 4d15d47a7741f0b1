import { loadEntity, ownerOf } from '../adapters/dynamodb/grants-store';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { AUTO_DISABLE_REASON, shouldDisable } from '../domain/webhooks/auto-disable';
import { deliveryView } from '../domain/webhooks/delivery-view';
import type { WebhookSubscription } from '../domain/webhooks/subscription';
import { webhookHeaders } from '../domain/webhooks/webhook-signature';
import { emitSubscriptionMetrics } from '../observability/metrics';
import type { Clock } from '../ports/clock';
import type { WebhookAttemptResult, WebhookDelivery, WebhookEndpoint } from '../ports/webhook-deliveries';
import type { WebhookSubscriptions } from '../ports/webhook-subscriptions';
import { exactJson } from '../support/exact-json';

export interface DeliverPorts {
  store: TableStore;
  clock: Clock;
  subscriptions: WebhookSubscriptions;
  endpoint: WebhookEndpoint;
}

/**
 * The two lanes of deliveries. `fast`: subscriptions whose last attempt succeeded. `slow`: those in a run of
 * failures, and every retry: a receiver that fails or never answers takes the slow lane's containers only, so it
 * cannot hold up the deliveries of partners whose endpoints answer.
 */
export type DeliveryLane = 'fast' | 'slow';

/** What became of one delivery: sent, not to be sent (and why), left to the slow lane unattempted, or failed. */
export type DeliveryOutcome =
  | { state: 'delivered'; webhookId: string }
  | { state: 'skipped'; reason: string }
  | { state: 'deferred'; reason: string }
  | { state: 'failed'; webhookId: string; reason: string; disabled: boolean };

/** The subscription as it is now, and what of the event its owner may be told now; a reason when nothing is sent. */
const judged = async (
  delivery: WebhookDelivery,
  ports: DeliverPorts,
): Promise<{ subscription: WebhookSubscription; webhookId: string; body: string } | { skipped: string }> => {
  const subscription = await ports.subscriptions.getOwn(delivery.userId, delivery.subscriptionId);
  if (!subscription || subscription.status !== 'active') return { skipped: 'subscription off or gone' };
  const { entityType, entityId } = delivery.event.event;
  const [owner, entity] = await Promise.all([
    ownerOf(ports, delivery.userId),
    loadEntity(ports.store, entityType, entityId),
  ]);
  if (!owner.active) return { skipped: 'owner inactive or deleted' };
  const view = deliveryView(delivery.event, { grants: owner.grants, entity });
  if (!view) return { skipped: 'not readable by the subscriber' };
  return { subscription, webhookId: view.webhookId, body: exactJson(view.payload) };
};

/** Records an attempt on the subscription; a long enough run of failures turns it off. */
const recorded = async (
  subscription: WebhookSubscription,
  result: WebhookAttemptResult,
  { subscriptions, clock }: DeliverPorts,
): Promise<boolean> => {
  const now = clock.now();
  const after = await subscriptions.recordAttempt(
    subscription,
    result.ok ? { ok: true, at: now } : { ok: false, at: now, reason: result.reason },
  );
  emitSubscriptionMetrics(subscription.id, result.ok ? { WebhookDeliveries: 1 } : { WebhookFailedAttempts: 1 }, now);
  if (result.ok || !after || !shouldDisable(after, now)) return false;
  await subscriptions.disable(subscription.userId, subscription.id, AUTO_DISABLE_REASON);
  return true;
};

/**
 * One delivery, in one lane: the subscription as it is now (skipped when deleted or off), the owner's account and
 * grants and the entity read now (skipped when the owner is inactive or may no longer read it), the event rendered
 * for the owner, signed and POSTed, and the outcome recorded on the subscription. In the fast lane, a subscription
 * already failing is not called at all: the delivery is left to the slow lane (`deferred`).
 */
export const deliver = async (
  delivery: WebhookDelivery,
  lane: DeliveryLane,
  ports: DeliverPorts,
): Promise<DeliveryOutcome> => {
  const judgement = await judged(delivery, ports);
  if ('skipped' in judgement) return { state: 'skipped', reason: judgement.skipped };
  const { subscription, webhookId, body } = judgement;
  if (lane === 'fast' && subscription.failureRun) return { state: 'deferred', reason: 'its subscription is failing' };
  const headers = webhookHeaders({ id: webhookId, body }, subscription.secrets, ports.clock.now());
  const result = await ports.endpoint.post({ url: subscription.url, headers, body });
  const disabled = await recorded(subscription, result, ports);
  if (result.ok) return { state: 'delivered', webhookId };
  return { state: 'failed', webhookId, reason: result.reason, disabled };
};
