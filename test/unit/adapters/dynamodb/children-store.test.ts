import { describe } from 'vitest';
import { childrenQuery } from '../../../../shared/adapters/dynamodb/children-store';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';

describe("the children store's requests", () => {
  itBuildsRequestsDynamoDbTakes([['the children of an advertiser', childrenQuery('ADVERTISER#1')]]);
});
