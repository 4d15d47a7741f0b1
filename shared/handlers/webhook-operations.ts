import type { Implementations } from '../pipeline/family-handler';
import { deleteSubscription, enableSubscription, listSubscriptions, rotateSecret } from './webhook-changes';
import { createSubscription, type WebhookPorts } from './webhook-create';
import { updateSubscription } from './webhook-update';

/** create, list, update, delete, rotate-secret and enable of a caller's own webhook subscriptions. */
export const webhookOperations = (ports: WebhookPorts): Implementations => ({
  'webhooks.create': createSubscription(ports),
  'webhooks.list': listSubscriptions(ports),
  'webhooks.update': updateSubscription(ports),
  'webhooks.delete': deleteSubscription(ports),
  'webhooks.rotateSecret': rotateSecret(ports),
  'webhooks.enable': enableSubscription(ports),
});
