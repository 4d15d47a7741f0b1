import { systemClock } from '../../shared/ports/clock';
import {
  corsFromEnvironment,
  resetQueueFromEnvironment,
  storeFromEnvironment,
} from '../../shared/runtime/dependencies';
import { limitFamilyEnvironment, parseEnvironment } from '../../shared/runtime/environment';
import { createHandler } from './handler';

const environment = parseEnvironment(limitFamilyEnvironment());

export const handler = createHandler({
  cors: corsFromEnvironment(environment),
  store: storeFromEnvironment(environment),
  clock: systemClock,
  resetQueue: resetQueueFromEnvironment(environment),
});
