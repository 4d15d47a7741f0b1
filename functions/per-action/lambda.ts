import { systemClock } from '../../shared/ports/clock';
import { corsFromEnvironment, storeFromEnvironment } from '../../shared/runtime/dependencies';
import { perActionEnvironment, parseEnvironment } from '../../shared/runtime/environment';
import { createHandler } from './handler';

const environment = parseEnvironment(perActionEnvironment());

export const handler = createHandler({
  cors: corsFromEnvironment(environment),
  store: storeFromEnvironment(environment),
  clock: systemClock,
});
