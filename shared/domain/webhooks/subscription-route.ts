import type { WebhookEntityFilter, WebhookEventKind, WebhookSubscription } from './subscription';

/**
 * What fan-out matches an event against, for one active subscription: its owner, the kinds and entities it asked
 * for, and since when it hears (its creation, or the enable.do that turned it back on). No URL, no secret: the
 * routes of a user are one small item, read in full by every event that user may hear of.
 */
export interface WebhookRoute {
  id: string;
  userId: number;
  events: WebhookEventKind[];
  entities: WebhookEntityFilter[];
  activeSince: string;
}

export const routeOf = ({ id, userId, events, entities, activeSince }: WebhookSubscription): WebhookRoute => ({
  id,
  userId,
  events,
  entities,
  activeSince,
});
