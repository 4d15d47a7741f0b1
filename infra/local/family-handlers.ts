import { createHandler as createAuthorizer } from '../../functions/authorizer/handler';
import { createHandler as createAuthHandler } from '../../functions/auth/handler';
import { createHandler as createDemandLimitsHandler } from '../../functions/demand-limits/handler';
import { createHandler as createPerActionHandler } from '../../functions/per-action/handler';
import { createHandler as createSupplyLimitsHandler } from '../../functions/supply-limits/handler';
import { createHandler as createWebhooksHandler } from '../../functions/webhooks/handler';
import type { Family } from '../../shared/api/route-table';
import type { Dependencies } from '../../shared/runtime/dependencies';
import type { Authorizer, FamilyHandler } from './local-server';
import { asFunction } from './aws-request-log';

/** The same handler factories the Lambda functions export, built on the local dependencies. */
export const createFamilyHandlers = (dependencies: Dependencies): Record<Family, FamilyHandler> => ({
  auth: asFunction('auth', createAuthHandler(dependencies)),
  'demand-limits': asFunction('demand-limits', createDemandLimitsHandler(dependencies)),
  'supply-limits': asFunction('supply-limits', createSupplyLimitsHandler(dependencies)),
  'per-action': asFunction('per-action', createPerActionHandler(dependencies)),
  webhooks: asFunction('webhooks', createWebhooksHandler(dependencies)),
});

export const createLocalAuthorizer = (dependencies: Dependencies): Authorizer =>
  asFunction('authorizer', createAuthorizer(dependencies));
