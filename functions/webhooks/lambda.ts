import { systemClock } from '../../shared/ports/clock';
import { corsFromEnvironment, storeFromEnvironment, webhooksFromEnvironment } from '../../shared/runtime/dependencies';
import { parseEnvironment, webhooksEnvironment } from '../../shared/runtime/environment';
import { createHandler } from './handler';

const environment = parseEnvironment(webhooksEnvironment());
const store = storeFromEnvironment(environment);

// on AWS a webhook goes to https only: the loopback exception is the local server's
export const handler = createHandler({
  cors: corsFromEnvironment(environment),
  store,
  webhooks: webhooksFromEnvironment(store),
  clock: systemClock,
});
