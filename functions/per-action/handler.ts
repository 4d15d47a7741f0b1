import { createFamilyHandler } from '../../shared/pipeline/family-handler';
import { systemClock } from '../../shared/ports/clock';
import { corsFromEnvironment, storeFromEnvironment, type Ports } from '../../shared/runtime/dependencies';
import { perActionOperations } from '../../shared/handlers/per-action-operations';

export const createHandler = (dependencies: Ports<'store' | 'clock'> & Partial<Ports<'cors'>>) =>
  createFamilyHandler('per-action', perActionOperations(dependencies), dependencies);

export const handler = createHandler({
  cors: corsFromEnvironment(),
  store: storeFromEnvironment(),
  clock: systemClock,
});
