import { limitOperations } from '../../shared/handlers/limit-operations';
import { createFamilyHandler } from '../../shared/http/family-handler';
import { systemClock } from '../../shared/ports/clock';
import { resetQueueFromEnvironment, storeFromEnvironment, type Ports } from '../../shared/runtime/dependencies';

export const createHandler = (dependencies: Ports<'store' | 'clock' | 'resetQueue'>) =>
  createFamilyHandler('supply-limits', limitOperations(dependencies), dependencies);

export const handler = createHandler({
  store: storeFromEnvironment(),
  clock: systemClock,
  resetQueue: resetQueueFromEnvironment(),
});
