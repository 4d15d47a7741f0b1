import { systemClock } from '../../shared/ports/clock';
import { storeFromEnvironment } from '../../shared/runtime/dependencies';
import { authorizerEnvironment, parseEnvironment } from '../../shared/runtime/environment';
import { createHandler } from './handler';

const environment = parseEnvironment(authorizerEnvironment());

export const handler = createHandler(
  { store: storeFromEnvironment(environment), clock: systemClock },
  {
    fallback: async () => environment.DEFAULT_USAGE_KEY,
    anonymous: async () => environment.ANONYMOUS_USAGE_KEY,
  },
);
