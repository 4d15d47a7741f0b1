import { createFamilyHandler } from '../../shared/http/family-handler';
import { systemClock } from '../../shared/ports/clock';
import { storeFromEnvironment, type Ports } from '../../shared/runtime/dependencies';
import { perActionOperations } from './operations';

export const createHandler = (dependencies: Ports<'store' | 'clock'>) =>
  createFamilyHandler('per-action', perActionOperations(dependencies), dependencies);

export const handler = createHandler({ store: storeFromEnvironment(), clock: systemClock });
