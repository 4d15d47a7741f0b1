import { createFamilyHandler } from '../../shared/http/family-handler';
import { dependenciesFromEnvironment, type Dependencies } from '../../shared/runtime/dependencies';

export const createHandler = (dependencies: Dependencies) => createFamilyHandler('demand-limits', {}, dependencies);

export const handler = createHandler(dependenciesFromEnvironment());
