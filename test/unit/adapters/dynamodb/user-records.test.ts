import { describe } from 'vitest';
import { usageKeyRequest } from '../../../../shared/adapters/dynamodb/user-records';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';

describe("the user records store's requests", () => {
  itBuildsRequestsDynamoDbTakes([['a metering key given', usageKeyRequest(1, 'k')]]);
});
