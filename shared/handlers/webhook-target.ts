import type { WebhookSubscription } from '../domain/webhooks/subscription';
import { isWebhookId } from '../domain/webhooks/webhook-id';
import { badRequest, notFound } from '../http/api-error';
import { principalOf, type ApiRequest } from '../pipeline/family-handler';
import type { Ports } from '../runtime/dependencies';

/** The `{webhookId}` of the path: a malformed one is a 400, as a malformed entity id is. */
export const webhookIdOf = (request: ApiRequest): string => {
  const id = request.pathParameters.webhookId;
  if (!isWebhookId(id)) throw badRequest({ webhookId: 'must be wh_ and 20 characters of a-z and 2-7' });
  return id;
};

export const subscriptionNotFound = (id: string) => notFound(`Webhook subscription ${id} not found`);

/** The caller's subscription named by the path; another user's answers the 404 of an unknown id, word for word. */
export const ownedSubscription = async (
  { webhooks }: Ports<'webhooks'>,
  request: ApiRequest,
): Promise<WebhookSubscription> => {
  const id = webhookIdOf(request);
  const subscription = await webhooks.getOwn(principalOf(request).userId, id);
  if (!subscription) throw subscriptionNotFound(id);
  return subscription;
};
