import type { WebhookSubscription } from '../domain/webhooks/subscription';
import { subscriptionView } from '../domain/webhooks/subscription-view';
import { newSecret, rotatedSecrets } from '../domain/webhooks/webhook-secrets';
import { jsonResponse } from '../http/response';
import { principalOf, type OperationHandler } from '../pipeline/family-handler';
import type { Ports } from '../runtime/dependencies';
import { isDryRun } from './request-values';
import { answerItems } from './idempotent-answer';
import { ownedSubscription, subscriptionNotFound, webhookIdOf } from './webhook-target';

type ChangePorts = Ports<'clock' | 'webhooks'>;

/** webhooks.do: the caller's subscriptions, newest first, without their secrets. */
export const listSubscriptions =
  ({ webhooks }: Ports<'webhooks'>): OperationHandler =>
  async (request) => {
    const own = await webhooks.listOwn(principalOf(request).userId);
    return jsonResponse(200, { success: true, webhooks: own.map(subscriptionView) });
  };

/** DELETE {webhookId}.do: the subscription and everything kept with it. */
export const deleteSubscription =
  ({ webhooks }: ChangePorts): OperationHandler =>
  async (request) => {
    const id = webhookIdOf(request);
    if (isDryRun(request)) {
      await ownedSubscription({ webhooks }, request);
      return jsonResponse(200, { success: true, dryRun: true, id });
    }
    const answer = jsonResponse(200, { success: true, id });
    const written = { alongside: answerItems(request, answer) };
    if (!(await webhooks.delete(principalOf(request).userId, id, written))) throw subscriptionNotFound(id);
    return answer;
  };

/** rotate-secret.do: a new secret, shown once; the ones before it keep signing for the overlap. */
export const rotateSecret =
  ({ webhooks, clock }: ChangePorts): OperationHandler =>
  async (request) => {
    const subscription = await ownedSubscription({ webhooks }, request);
    const now = clock.now();
    const fresh = newSecret(now);
    const secrets = rotatedSecrets(subscription.secrets, fresh, now);
    const previousSecretExpiresAt = secrets[1]?.expiresAt;
    const view = subscriptionView(subscription);
    if (isDryRun(request)) return jsonResponse(200, { success: true, dryRun: true, webhook: view });
    const answer = jsonResponse(200, {
      success: true,
      webhook: view,
      secret: fresh.value,
      ...(previousSecretExpiresAt ? { previousSecretExpiresAt } : {}),
    });
    const written = { alongside: answerItems(request, answer) };
    if (!(await webhooks.replaceSecrets(subscription.userId, subscription.id, secrets, written)))
      throw subscriptionNotFound(subscription.id);
    return answer;
  };

/** A subscription as enable.do leaves it: active, with no reason to be off and no failure run. */
const enabled = (subscription: WebhookSubscription): WebhookSubscription => {
  const on: WebhookSubscription = { ...subscription, status: 'active' };
  delete on.disabledReason;
  delete on.failureRun;
  return on;
};

/** enable.do: back on, with no failure run; enabling an active subscription changes nothing. */
export const enableSubscription =
  ({ webhooks }: ChangePorts): OperationHandler =>
  async (request) => {
    const subscription = await ownedSubscription({ webhooks }, request);
    const view = subscriptionView(enabled(subscription));
    if (isDryRun(request)) return jsonResponse(200, { success: true, dryRun: true, webhook: view });
    const answer = jsonResponse(200, { success: true, webhook: view });
    const written = { alongside: answerItems(request, answer) };
    if (!(await webhooks.enable(subscription.userId, subscription.id, written)))
      throw subscriptionNotFound(subscription.id);
    return answer;
  };
