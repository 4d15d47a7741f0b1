import { loadEntity } from '../adapters/dynamodb/grants-store';
import type { TableStore } from '../adapters/dynamodb/table-store';
import { usersWithUpdateShare } from '../adapters/dynamodb/update-shares';
import { coveringNames, matchingRoutes } from '../domain/webhooks/subscription-matching';
import { eventEntity, type WebhookEvent } from '../domain/webhooks/webhook-event';
import type { WebhookDeliveryQueue } from '../ports/webhook-deliveries';
import type { WebhookSubscriptions } from '../ports/webhook-subscriptions';

export interface FanOutPorts {
  store: TableStore;
  subscriptions: WebhookSubscriptions;
  deliveries: WebhookDeliveryQueue;
}

/**
 * One event off the bus: one delivery per active subscription that asked for it (its kind, its entity filter,
 * which covers the entity's descendants). Only a user holding an UPDATE share on the entity or an ancestor may hear
 * of it, so only those users' routes are read: a fan-out reads in proportion to who may hear, never to every
 * subscription of the network. Nothing is cached: a subscription is heard from the moment its write committed.
 * Whether the owner may still read the entity is judged again per delivery, when sent.
 */
export const fanOut = async (event: WebhookEvent, ports: FanOutPorts): Promise<number> => {
  const entity = await loadEntity(ports.store, event.event.entityType, event.event.entityId);
  // an entity no longer stored is one no one may read
  if (!entity) return 0;
  const owners = await usersWithUpdateShare(ports.store, coveringNames(eventEntity(event), entity));
  if (owners.length === 0) return 0;
  const matching = matchingRoutes(event, entity, await ports.subscriptions.routesOf(owners));
  if (matching.length > 0)
    await ports.deliveries.send(matching.map((route) => ({ subscriptionId: route.id, userId: route.userId, event })));
  return matching.length;
};
