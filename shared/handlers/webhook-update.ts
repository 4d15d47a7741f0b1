import { subscriptionView } from '../domain/webhooks/subscription-view';
import type { OperationHandler } from '../pipeline/family-handler';
import { changeOwned } from './webhook-changes';
import { wantedSubscription, type WebhookPorts } from './webhook-create';

/**
 * update.do: create.do's parameters, judged as create.do judges them, replace the subscription's URL, events and
 * filters in place. Its id, secrets, status and failure run stay; it is heard at the new URL from the moment the
 * change commits, with no gap in between.
 */
export const updateSubscription =
  (ports: WebhookPorts): OperationHandler =>
  (request) =>
    changeOwned(ports, request, async (read) => {
      const next = { ...read, ...(await wantedSubscription(ports, request)) };
      return { next, answer: { success: true, webhook: subscriptionView(next) } };
    });
