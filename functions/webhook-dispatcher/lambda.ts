import { systemClock } from '../../shared/ports/clock';
import { storeFromEnvironment, webhooksFromEnvironment } from '../../shared/runtime/dependencies';
import { parseEnvironment, webhookDispatcherEnvironment } from '../../shared/runtime/environment';
import { webhookDispatcherPortsFromEnvironment } from '../../shared/runtime/webhook-dispatcher-ports';
import { createHandler } from './handler';

const environment = parseEnvironment(webhookDispatcherEnvironment());
const store = storeFromEnvironment(environment);

export const handler = createHandler({
  store,
  clock: systemClock,
  subscriptions: webhooksFromEnvironment(store),
  ...webhookDispatcherPortsFromEnvironment(environment),
});
