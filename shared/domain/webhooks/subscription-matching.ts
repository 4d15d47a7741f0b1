import { ancestorsOf, entityName, type EntityType } from '../levels';
import type { Entity } from '../access';
import type { WebhookRoute } from './subscription-route';
import { eventEntity, eventTime, type WebhookEvent } from './webhook-event';

/** The entity and its ancestors (when the entity is known), as `TYPE#id` names. */
export const coveringNames = (target: { type: EntityType; id: number }, entity: Entity | undefined): string[] => [
  entityName(target.type, target.id),
  ...(entity ? ancestorsOf(entity.type, entity).map((ancestor) => entityName(ancestor.type, ancestor.id)) : []),
];

/**
 * The start of the second a time falls in. The table stream times a counting write to the second, rounded down
 * (DynamoDB Streams' `ApproximateCreationDateTime`): a crossing in the second a subscription was created in may
 * bear a time just before its creation.
 */
const secondOf = (time: string): number => Math.floor(Date.parse(time) / 1000) * 1000;

/**
 * The active subscriptions that asked for this event: its kind, and no entity filter or one naming the entity or
 * an ancestor of it (a filter on a campaign hears of its banners, as a share on it covers them), active since
 * before the event happened or since its second (the table's stream may bring an event seconds after it, when a
 * newer subscription exists). Whether the owner may read it is judged later, at delivery time.
 */
export const matchingRoutes = (
  event: WebhookEvent,
  entity: Entity | undefined,
  routes: readonly WebhookRoute[],
): WebhookRoute[] => {
  const names = new Set(coveringNames(eventEntity(event), entity));
  const happened = Date.parse(eventTime(event));
  return routes.filter(
    (route) =>
      route.events.includes(event.kind) &&
      secondOf(route.activeSince) <= happened &&
      (route.entities.length === 0 ||
        route.entities.some((filter) => names.has(entityName(filter.entityType, filter.entityId)))),
  );
};
