import { loadEntity } from '../adapters/dynamodb/grants-store';
import type { TableStore } from '../adapters/dynamodb/table-store';
import type { WebhookSubscription } from '../domain/webhooks/subscription';
import { matchingSubscriptions } from '../domain/webhooks/subscription-matching';
import type { WebhookEvent } from '../domain/webhooks/webhook-event';
import type { Clock } from '../ports/clock';
import type { WebhookDeliveryQueue } from '../ports/webhook-deliveries';
import type { WebhookSubscriptions } from '../ports/webhook-subscriptions';
import { WarmCache } from '../support/warm-cache';

export interface FanOutPorts {
  store: TableStore;
  clock: Clock;
  subscriptions: WebhookSubscriptions;
  deliveries: WebhookDeliveryQueue;
}

/** The active subscriptions, as this container last listed them (a new one is heard of within the cache's bound). */
const active = new WarmCache<WebhookSubscription[]>();

/**
 * One event off the bus: one delivery per active subscription that asked for it (its kind, its entity filter,
 * which covers the entity's descendants). Whether the owner may read the entity is judged per delivery, when sent.
 */
export const fanOut = async (event: WebhookEvent, ports: FanOutPorts): Promise<number> => {
  const [subscriptions, entity] = await Promise.all([
    active.through(ports.store.tableName, ports.clock, () => ports.subscriptions.listActive()),
    loadEntity(ports.store, event.event.entityType, event.event.entityId),
  ]);
  const matching = matchingSubscriptions(event, entity, subscriptions);
  if (matching.length > 0)
    await ports.deliveries.send(
      matching.map((subscription) => ({ subscriptionId: subscription.id, userId: subscription.userId, event })),
    );
  return matching.length;
};
