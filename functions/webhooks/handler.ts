import { createFamilyHandler } from '../../shared/pipeline/family-handler';
import { systemClock } from '../../shared/ports/clock';
import {
  corsFromEnvironment,
  storeFromEnvironment,
  webhooksFromEnvironment,
  type Ports,
  type ServiceConfig,
} from '../../shared/runtime/dependencies';
import { webhookOperations } from '../../shared/handlers/webhook-operations';

export const createHandler = (
  dependencies: Ports<'store' | 'clock' | 'webhooks'> &
    Partial<Ports<'cors'>> & { config?: Pick<ServiceConfig, 'loopbackWebhooks'> },
) => createFamilyHandler('webhooks', webhookOperations(dependencies), dependencies);

const store = storeFromEnvironment();

// on AWS a webhook goes to https only: the loopback exception is the local server's
export const handler = createHandler({
  cors: corsFromEnvironment(),
  store,
  webhooks: webhooksFromEnvironment(store),
  clock: systemClock,
});
