import { limitOperations } from '../../shared/handlers/limit-operations';
import { createFamilyHandler } from '../../shared/http/family-handler';
import { dependenciesFromEnvironment, type Dependencies } from '../../shared/runtime/dependencies';

export const createHandler = (dependencies: Dependencies) =>
  createFamilyHandler('supply-limits', limitOperations(dependencies), dependencies);

export const handler = createHandler(dependenciesFromEnvironment());
