import type { WebhookSubscription } from '../domain/webhooks/subscription';
import { subscriptionView } from '../domain/webhooks/subscription-view';
import { newSecret, rotatedSecrets } from '../domain/webhooks/webhook-secrets';
import { jsonResponse } from '../http/response';
import { principalOf, type ApiRequest, type OperationHandler } from '../pipeline/family-handler';
import type { Ports } from '../runtime/dependencies';
import { isDryRun } from './request-values';
import { answerItems } from './idempotent-answer';
import { optimisticWrite } from './optimistic-write';
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

/** What an owner's change writes (nothing when undefined) and answers. */
interface Planned {
  next?: WebhookSubscription;
  answer: Record<string, unknown>;
}

/**
 * An owner's change of one subscription, on the subscription as read: `plan` judges it and names its answer
 * (`next` undefined: nothing to write), after its owner is known: another user's id answers as an unknown one,
whatever else the request holds. A change made meanwhile (another rotation, a failure recorded by the
 * dispatcher) makes it read and judge again, so that no change is lost.
 */
export const changeOwned = (
  { webhooks }: ChangePorts,
  request: ApiRequest,
  plan: (read: WebhookSubscription) => Planned | Promise<Planned>,
) =>
  optimisticWrite(async () => {
    const read = await ownedSubscription({ webhooks }, request);
    const { next, answer } = await plan(read);
    if (isDryRun(request)) return jsonResponse(200, { ...answer, dryRun: true });
    const response = jsonResponse(200, answer);
    if (next && !(await webhooks.change(read, next, { alongside: answerItems(request, response) })))
      throw subscriptionNotFound(read.id);
    return response;
  });

/** rotate-secret.do: a new secret, shown once; the ones before it keep signing for the overlap. */
export const rotateSecret =
  (ports: ChangePorts): OperationHandler =>
  (request) =>
    changeOwned(ports, request, (read) => {
      const now = ports.clock.now();
      const fresh = newSecret(now);
      const secrets = rotatedSecrets(read.secrets, fresh, now);
      const previousSecretExpiresAt = secrets[1]?.expiresAt;
      const answer = { success: true, webhook: subscriptionView(read) };
      return isDryRun(request)
        ? { answer }
        : {
            next: { ...read, secrets },
            answer: { ...answer, secret: fresh.value, ...(previousSecretExpiresAt ? { previousSecretExpiresAt } : {}) },
          };
    });

/** A disabled subscription as enable.do turns it on: active from now, with no reason to be off and no failure run. */
const enabled = (subscription: WebhookSubscription, now: Date): WebhookSubscription => {
  const on: WebhookSubscription = { ...subscription, status: 'active', activeSince: now.toISOString() };
  delete on.disabledReason;
  delete on.failureRun;
  return on;
};

/** enable.do: a disabled subscription back on, heard from now; enabling an active one changes nothing. */
export const enableSubscription =
  (ports: ChangePorts): OperationHandler =>
  (request) =>
    changeOwned(ports, request, (read) => {
      if (read.status === 'active') return { answer: { success: true, webhook: subscriptionView(read) } };
      const next = enabled(read, ports.clock.now());
      return { next, answer: { success: true, webhook: subscriptionView(next) } };
    });
