import { limitOperations } from '../../shared/handlers/limit-operations';
import { createFamilyHandler } from '../../shared/pipeline/family-handler';
import { systemClock } from '../../shared/ports/clock';
import {
  resetQueueFromEnvironment,
  corsFromEnvironment,
  storeFromEnvironment,
  type Ports,
} from '../../shared/runtime/dependencies';

export const createHandler = (dependencies: Ports<'store' | 'clock' | 'resetQueue'> & Partial<Ports<'cors'>>) =>
  createFamilyHandler('supply-limits', limitOperations(dependencies), dependencies);

export const handler = createHandler({
  cors: corsFromEnvironment(),
  store: storeFromEnvironment(),
  clock: systemClock,
  resetQueue: resetQueueFromEnvironment(),
});
