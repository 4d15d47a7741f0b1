import { describe } from 'vitest';
import {
  clearActionCountersItem,
  deletePerActionRequest,
  savePerActionRequest,
} from '../../../../shared/adapters/dynamodb/per-action-store';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';

const perAction = {
  id: 7,
  entityType: 'CAMPAIGN' as const,
  entityId: 100,
  actionId: 3,
  dailyConversionsLimit: 5,
  totalConversionsLimit: 50,
  version: 2,
};

describe("the per-action store's requests", () => {
  itBuildsRequestsDynamoDbTakes([
    ['a per-action limit saved anew', savePerActionRequest('t', perAction, undefined, true)],
    ['a per-action limit saved again', savePerActionRequest('t', perAction, 2, false)],
    ['per-action limits deleted', deletePerActionRequest('t', [perAction, { ...perAction, actionId: 4 }])],
    ['an action counter cleared', clearActionCountersItem('t', perAction, true)],
    ['an absent action counter checked', clearActionCountersItem('t', perAction, false)],
  ]);
});
