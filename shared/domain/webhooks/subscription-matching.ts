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
 * The start of the second a time falls in. The table stream times a counting write to the second, rounded down
 * (DynamoDB Streams' `ApproximateCreationDateTime`): a crossing in the second a subscription was created in may
 * bear a time just before its creation.
 */
const secondOf = (time: string): number => Math.floor(Date.parse(time) / 1000) * 1000;

/**
 * The active subscriptions that asked for this event: its kind, and no entity filter or one naming the entity or
 * an ancestor of it (a filter on a campaign hears of its banners, as a share on it covers them), created before
 * the event happened or in the same second (the table's stream may bring an event seconds after it, when a newer
 * subscription exists). Whether the owner may read it is judged later, at delivery time.
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
      secondOf(subscription.createdAt) <= happened &&
      (subscription.entities.length === 0 ||
        subscription.entities.some((filter) => names.has(`${filter.entityType}#${filter.entityId}`))),
  );
};
