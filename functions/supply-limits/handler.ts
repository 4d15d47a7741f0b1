import { limitOperations } from '../../shared/handlers/limit-operations';
import { createFamilyHandler } from '../../shared/pipeline/family-handler';
import type { Ports } from '../../shared/runtime/dependencies';

export const createHandler = (dependencies: Ports<'store' | 'clock' | 'resetQueue'> & Partial<Ports<'cors'>>) =>
  createFamilyHandler('supply-limits', limitOperations(dependencies), dependencies);
