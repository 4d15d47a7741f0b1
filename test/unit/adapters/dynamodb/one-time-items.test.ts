import { describe } from 'vitest';
import { consumeRequest } from '../../../../shared/adapters/dynamodb/one-time-items';
import { resetTokenKey } from '../../../../shared/table/keys';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';

const now = new Date('2026-11-25T12:00:00Z');

describe("the one-time items store's requests", () => {
  itBuildsRequestsDynamoDbTakes([['a one-time item consumed', consumeRequest(resetTokenKey('d'), now)]]);
});
