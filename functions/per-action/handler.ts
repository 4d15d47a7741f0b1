import { createFamilyHandler } from '../../shared/pipeline/family-handler';
import type { Ports } from '../../shared/runtime/dependencies';
import { perActionOperations } from '../../shared/handlers/per-action-operations';

export const createHandler = (dependencies: Ports<'store' | 'clock'> & Partial<Ports<'cors'>>) =>
  createFamilyHandler('per-action', perActionOperations(dependencies), dependencies);
