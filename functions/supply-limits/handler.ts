import { createFamilyHandler } from '../../shared/http/family-handler';
import { dependenciesFromEnvironment, type Dependencies } from '../../shared/runtime/dependencies';

export const createHandler = (_dependencies: Dependencies) => createFamilyHandler('supply-limits', {});

export const handler = createHandler(dependenciesFromEnvironment());
