import { describe } from 'vitest';
import { restartTallyRequest } from '../../../../shared/adapters/dynamodb/counter-shards-store';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';

describe("the counter shards store's requests", () => {
  itBuildsRequestsDynamoDbTakes([['a write tally started again', restartTallyRequest('ADVERTISER', 1, 1_000, 12_000)]]);
});
