import type { LimitReached } from '../delivery/limit-reached';
import type { LimitChanged } from '../history/limit-changed';
import type { EntityType } from '../levels';
import type { WebhookEventKind } from './subscription';

/** An event of the bus a subscription may hear of, with its kind as a delivery names it. */
export type WebhookEvent =
  | { kind: Extract<WebhookEventKind, 'limit.reached'>; event: LimitReached }
  | { kind: Extract<WebhookEventKind, 'limit.changed'>; event: LimitChanged };

/** The entity an event is about. */
export const eventEntity = ({ event }: WebhookEvent): { type: EntityType; id: number } => ({
  type: event.entityType,
  id: event.entityId,
});

/** When the event happened, by the service's clock: the counting write's commit, or the change's. */
export const eventTime = ({ kind, event }: WebhookEvent): string =>
  kind === 'limit.reached' ? event.at : event.change.at;

/** One event to deliver to one subscription: what the deliveries queues carry. */
export interface WebhookDelivery {
  subscriptionId: string;
  userId: number;
  event: WebhookEvent;
  /**
   * In the slow lane: the attempts made before it came there (0 when it came without one, its subscription already
   * failing). The lane's own receives count the rest.
   */
  priorAttempts?: number;
}
