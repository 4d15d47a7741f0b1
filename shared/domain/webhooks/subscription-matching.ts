import { ancestorsOf, type EntityType } from '../levels';
import type { Entity } from '../access';
import type { WebhookSubscription } from './subscription';
import { eventEntity, eventTime, type WebhookEvent } from './webhook-event';

/** The entity and its ancestors (when the entity is known), as `TYPE#id` names. */
const coveredBy = (target: { type: EntityType; id: number }, entity: Entity | undefined): Set<string> =>
  new Set([
    `${target.type}#${target.id}`,
    ...(entity ? ancestorsOf(entity.type, entity).map((ancestor) => `${ancestor.type}#${ancestor.id}`) : []),
  ]);

/**
 * The active subscriptions that asked for this event: its kind, and no entity filter or one naming the entity or
 * an ancestor of it (a filter on a campaign hears of its banners, as a share on it covers them), created at or
 * before the event happened (the table's stream may bring an event seconds after it, when a newer subscription
 * exists). Whether the owner may read it is judged later, at delivery time.
 */
export const matchingSubscriptions = (
  event: WebhookEvent,
  entity: Entity | undefined,
  subscriptions: readonly WebhookSubscription[],
): WebhookSubscription[] => {
  const names = coveredBy(eventEntity(event), entity);
  const happened = Date.parse(eventTime(event));
  return subscriptions.filter(
    (subscription) =>
      subscription.status === 'active' &&
      subscription.events.includes(event.kind) &&
      Date.parse(subscription.createdAt) <= happened &&
      (subscription.entities.length === 0 ||
        subscription.entities.some((filter) => names.has(`${filter.entityType}#${filter.entityId}`))),
  );
};
