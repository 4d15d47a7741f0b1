import { createFamilyHandler } from '../../shared/http/family-handler';
import { dependenciesFromEnvironment, type Dependencies } from '../../shared/runtime/dependencies';
import { perActionOperations } from './operations';

export const createHandler = (dependencies: Dependencies) => createFamilyHandler('per-action', perActionOperations(dependencies), dependencies);

export const handler = createHandler(dependenciesFromEnvironment());
