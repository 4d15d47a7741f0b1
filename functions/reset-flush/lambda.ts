import { systemClock } from '../../shared/ports/clock';
import { resetSourceFromEnvironment, storeFromEnvironment } from '../../shared/runtime/dependencies';
import { resetFlushEnvironment, parseEnvironment } from '../../shared/runtime/environment';
import { createHandler } from './handler';

const environment = parseEnvironment(resetFlushEnvironment());

export const handler = createHandler(
  { store: storeFromEnvironment(environment), clock: systemClock },
  resetSourceFromEnvironment(environment),
);
