import { describe } from 'vitest';
import { historyPageQuery, historyWrites } from '../../../../shared/adapters/dynamodb/history-store';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';

const now = new Date('2026-11-25T12:00:00Z');
const entry = {
  at: now.toISOString(),
  operation: 'set' as const,
  by: { userId: 1, username: 'demo', method: 'apiKey' },
};

describe("the history store's requests", () => {
  itBuildsRequestsDynamoDbTakes([
    [
      'a first history entry',
      { TransactItems: historyWrites('t', { type: 'CAMPAIGN', id: 100 }, entry, { now, versionRead: 0 }) },
    ],
    [
      'a later history entry',
      { TransactItems: historyWrites('t', { type: 'CAMPAIGN', id: 100 }, entry, { now, versionRead: 3 }) },
    ],
    ['the first history page', historyPageQuery('CAMPAIGN#100', undefined, 10)],
    ['a later history page', historyPageQuery('CAMPAIGN#100', 'HISTORY#V#000000000003', 10)],
  ]);
});
