import type {
  WebhookEntityFilter,
  WebhookEventKind,
  WebhookSecret,
  WebhookSubscription,
} from '../../domain/webhooks/subscription';
import type { WebhookRoute } from '../../domain/webhooks/subscription-route';
import { webhookKey } from '../../table/keys';
import type { Item } from './table-store';

/** A route's attribute in the user's routes item: one per active subscription, named by its id. */
export const ROUTE_PREFIX = 'R#';
export const routeAttribute = (id: string) => `${ROUTE_PREFIX}${id}`;

/** The stored item of a subscription: the failure run is kept in two top-level attributes, so one update extends it. */
export const subscriptionItem = (subscription: WebhookSubscription): Item => {
  const { failureRun, ...rest } = subscription;
  return {
    ...webhookKey(subscription.userId, subscription.id),
    ...rest,
    ...(failureRun ? { failureSince: failureRun.since, failureAttempts: failureRun.attempts } : {}),
  };
};

const secretOf = (item: Item): WebhookSecret => ({
  value: String(item.value),
  createdAt: String(item.createdAt),
  ...(item.expiresAt !== undefined ? { expiresAt: String(item.expiresAt) } : {}),
});

const entitiesOf = (value: unknown): WebhookEntityFilter[] =>
  ((value as Item[] | undefined) ?? []).map((entity) => ({
    entityType: entity.entityType as WebhookEntityFilter['entityType'],
    entityId: Number(entity.entityId),
  }));

const eventsOf = (value: unknown): WebhookEventKind[] => (value as string[]).map((kind) => kind as WebhookEventKind);

export const subscriptionFromItem = (item: Item): WebhookSubscription => ({
  id: String(item.id),
  userId: Number(item.userId),
  url: String(item.url),
  events: eventsOf(item.events),
  entities: entitiesOf(item.entities),
  secrets: (item.secrets as Item[]).map(secretOf),
  status: item.status === 'disabled' ? 'disabled' : 'active',
  ...(item.disabledReason !== undefined ? { disabledReason: String(item.disabledReason) } : {}),
  ...(item.failureSince !== undefined
    ? { failureRun: { since: String(item.failureSince), attempts: Number(item.failureAttempts ?? 0) } }
    : {}),
  createdAt: String(item.createdAt),
  activeSince: String(item.activeSince ?? item.createdAt),
  version: Number(item.version ?? 0),
});

/** The routes a user's routes item holds, one per active subscription. */
export const routesFromItem = (item: Item): WebhookRoute[] =>
  Object.entries(item)
    .filter(([name]) => name.startsWith(ROUTE_PREFIX))
    .map(([name, value]) => {
      const route = value as Item;
      return {
        id: name.slice(ROUTE_PREFIX.length),
        userId: Number(item.userId),
        events: eventsOf(route.events),
        entities: entitiesOf(route.entities),
        activeSince: String(route.activeSince),
      };
    });

export const storedRoute = ({ events, entities, activeSince }: WebhookRoute) => ({ events, entities, activeSince });
