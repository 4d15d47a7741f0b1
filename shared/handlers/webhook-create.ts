import { WriteConflict } from '../domain/errors';
import type { WebhookSubscription } from '../domain/webhooks/subscription';
import { subscriptionCapProblem, MAX_SUBSCRIPTIONS_PER_USER } from '../domain/webhooks/subscription-cap';
import {
  FILTER_PARAMETERS,
  parseSubscriptionRequest,
  type SubscriptionRequest,
} from '../domain/webhooks/subscription-request';
import { subscriptionView } from '../domain/webhooks/subscription-view';
import { newWebhookId } from '../domain/webhooks/webhook-id';
import { newSecret } from '../domain/webhooks/webhook-secrets';
import { badRequest } from '../http/api-error';
import { jsonResponse } from '../http/response';
import { principalOf, type ApiRequest, type OperationHandler } from '../pipeline/family-handler';
import type { Ports, ServiceConfig } from '../runtime/dependencies';
import { requireReadableFilters } from './webhook-filter-access';
import { isDryRun } from './request-values';
import { answerItems } from './idempotent-answer';

export type WebhookPorts = Ports<'store' | 'clock' | 'webhooks'> & { config?: Pick<ServiceConfig, 'loopbackWebhooks'> };

const capRefusal = (count: number) =>
  badRequest(
    { url: subscriptionCapProblem(count) ?? '' },
    `At most ${MAX_SUBSCRIPTIONS_PER_USER} webhook subscriptions per user`,
  );

/**
 * What create.do and update.do ask for: every parameter judged (each offending one named), then each filter
 * entity's access, as a read of its limit judges it.
 */
export const wantedSubscription = async (ports: WebhookPorts, request: ApiRequest): Promise<SubscriptionRequest> => {
  const { parameters } = request;
  const parsed = parseSubscriptionRequest(
    {
      url: parameters.get('url'),
      events: parameters.list('events'),
      filters: Object.fromEntries(FILTER_PARAMETERS.map((name) => [name, parameters.list(name)])),
    },
    { loopbackHttp: ports.config?.loopbackWebhooks === true },
  );
  if (!parsed.ok) throw badRequest(parsed.errors);
  await requireReadableFilters(ports, principalOf(request).userId, parsed.value.entities);
  return parsed.value;
};

/** create.do: checks every parameter, then the filters' access, then the cap; the secret is in this answer only. */
export const createSubscription =
  (ports: WebhookPorts): OperationHandler =>
  async (request) => {
    const userId = principalOf(request).userId;
    const wanted = await wantedSubscription(ports, request);
    const now = ports.clock.now().toISOString();
    const secret = newSecret(ports.clock.now());
    const subscription: WebhookSubscription = {
      id: newWebhookId(),
      userId,
      ...wanted,
      secrets: [secret],
      status: 'active',
      createdAt: now,
      activeSince: now,
      version: 0,
    };
    if (isDryRun(request)) {
      const held = (await ports.webhooks.listOwn(userId)).length;
      if (subscriptionCapProblem(held)) throw capRefusal(held);
      return jsonResponse(200, { success: true, dryRun: true, webhook: subscriptionView(subscription) });
    }
    const answer = jsonResponse(200, { success: true, webhook: subscriptionView(subscription), secret: secret.value });
    try {
      await ports.webhooks.create(subscription, { alongside: answerItems(request, answer) });
    } catch (error) {
      // the store refuses a create past the cap atomically, concurrent creates included
      if (error instanceof WriteConflict) throw capRefusal(MAX_SUBSCRIPTIONS_PER_USER);
      throw error;
    }
    return answer;
  };
