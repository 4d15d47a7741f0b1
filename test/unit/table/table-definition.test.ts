import { describe, expect, it } from 'vitest';
import { TABLE_DEFINITION } from '../../../shared/table/table-definition';
import { createTableInput } from '../../../shared/adapters/dynamodb/create-table-input';

describe('table definition', () => {
  it('creates the table with the shared key schema, the parent index and the update-share index', () => {
    const input = createTableInput('t');
    expect(input.KeySchema).toEqual([
      { AttributeName: TABLE_DEFINITION.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_DEFINITION.sortKey, KeyType: 'RANGE' },
    ]);
    expect(input.BillingMode).toBe('PAY_PER_REQUEST');
    expect(input.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.Projection?.ProjectionType])).toEqual([
      [TABLE_DEFINITION.byParentIndex.indexName, 'ALL'],
      [TABLE_DEFINITION.byUpdateShareIndex.indexName, 'KEYS_ONLY'],
    ]);
  });
});
