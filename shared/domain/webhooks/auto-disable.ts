import type { WebhookSubscription } from './subscription';

/** A subscription whose deliveries have all failed for this long, with no success between, is turned off. */
export const AUTO_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

/** Why, in the words its owner reads in the listing. */
export const AUTO_DISABLE_REASON =
  'Every delivery attempt failed for 5 days; turn it on again once the endpoint answers';

/** Whether a failed attempt at `now` ends the subscription's run of failures in its disabling. */
export const shouldDisable = (subscription: WebhookSubscription, now: Date): boolean =>
  subscription.status === 'active' &&
  subscription.failureRun !== undefined &&
  now.getTime() - Date.parse(subscription.failureRun.since) >= AUTO_DISABLE_AFTER_MS;
