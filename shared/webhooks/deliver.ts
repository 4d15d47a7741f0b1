import { loadEntity, loadGrants } from '../adapters/dynamodb/grants-store';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { AUTO_DISABLE_REASON, shouldDisable } from '../domain/webhooks/auto-disable';
import { deliveryView } from '../domain/webhooks/delivery-view';
import { retryDelaySeconds } from '../domain/webhooks/retry-schedule';
import { webhookHeaders } from '../domain/webhooks/webhook-signature';
import { emitSubscriptionMetrics } from '../observability/metrics';
import type { Clock } from '../ports/clock';
import type { WebhookDelivery, WebhookEndpoint } from '../ports/webhook-deliveries';
import type { WebhookSubscriptions } from '../ports/webhook-subscriptions';
import { exactJson } from '../support/exact-json';

export interface DeliverPorts {
  store: TableStore;
  clock: Clock;
  subscriptions: WebhookSubscriptions;
  endpoint: WebhookEndpoint;
}

/** What became of one attempt: sent, not to be sent (and why), or failed, with the wait before the next attempt. */
export type DeliveryOutcome =
  | { state: 'delivered'; webhookId: string }
  | { state: 'skipped'; reason: string }
  | { state: 'failed'; webhookId: string; reason: string; retryInSeconds?: number; disabled: boolean };

/**
 * Attempt `attempt` (1-based) of one delivery: the subscription as it is now (skipped when deleted or off), the
 * owner's grants and the entity read now (skipped when the owner may no longer read it), the event rendered for
 * the owner, signed, POSTed, and the outcome recorded on the subscription, which a long enough run of failures
 * turns off.
 */
export const deliver = async (
  delivery: WebhookDelivery,
  attempt: number,
  ports: DeliverPorts,
): Promise<DeliveryOutcome> => {
  const subscription = await ports.subscriptions.getOwn(delivery.userId, delivery.subscriptionId);
  if (!subscription || subscription.status !== 'active')
    return { state: 'skipped', reason: 'subscription off or gone' };
  const [grants, entity] = await Promise.all([
    loadGrants(ports.store, delivery.userId),
    loadEntity(ports.store, delivery.event.event.entityType, delivery.event.event.entityId),
  ]);
  const view = deliveryView(delivery.event, { grants, entity });
  if (!view) return { state: 'skipped', reason: 'not readable by the subscriber' };
  const now = ports.clock.now();
  const body = exactJson(view.payload);
  const headers = webhookHeaders({ id: view.webhookId, body }, subscription.secrets, now);
  const result = await ports.endpoint.post({ url: subscription.url, headers, body });
  const recorded = await ports.subscriptions.recordAttempt(
    subscription.id,
    result.ok ? { ok: true, at: now } : { ok: false, at: now, reason: result.reason },
  );
  emitSubscriptionMetrics(subscription.id, result.ok ? { WebhookDeliveries: 1 } : { WebhookFailedAttempts: 1 }, now);
  if (result.ok) return { state: 'delivered', webhookId: view.webhookId };
  const disabled = recorded !== undefined && shouldDisable(recorded, now);
  if (disabled) await ports.subscriptions.disable(subscription.id, AUTO_DISABLE_REASON);
  const retryInSeconds = disabled ? undefined : retryDelaySeconds(attempt);
  return {
    state: 'failed',
    webhookId: view.webhookId,
    reason: result.reason,
    disabled,
    ...(retryInSeconds !== undefined ? { retryInSeconds } : {}),
  };
};
