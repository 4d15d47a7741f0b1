import { LEVELS } from '../levels';
import { filterParameterOf } from './subscription-request';
import type { WebhookSubscription } from './subscription';

/**
 * What its owner is shown of a subscription: everything but its secrets, which are shown once (create and
 * rotate-secret answers). Filters are listed under the parameters that set them (`campaignIds`).
 */
export const subscriptionView = (subscription: WebhookSubscription) => {
  const filters: Record<string, number[]> = {};
  for (const { entityType } of LEVELS) {
    const ids = subscription.entities.filter((entity) => entity.entityType === entityType).map((e) => e.entityId);
    if (ids.length > 0) filters[filterParameterOf(entityType)] = ids;
  }
  return {
    id: subscription.id,
    url: subscription.url,
    events: subscription.events,
    filters,
    status: subscription.status,
    ...(subscription.disabledReason !== undefined ? { disabledReason: subscription.disabledReason } : {}),
    ...(subscription.failureRun ? { failureRun: subscription.failureRun } : {}),
    createdAt: subscription.createdAt,
    activeSince: subscription.activeSince,
  };
};

export type SubscriptionView = ReturnType<typeof subscriptionView>;
