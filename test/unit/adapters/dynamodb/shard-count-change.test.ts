import { describe, expect, it } from 'vitest';
import { shardCountChangeItems } from '../../../../shared/adapters/dynamodb/shard-count-change';
import { MAX_SHARDS } from '../../../../shared/domain/delivery/counter-shards';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';

const entity = { type: 'ADVERTISER', id: 1 } as const;

describe('a shard count change', () => {
  itBuildsRequestsDynamoDbTakes([
    [
      'a shard count set',
      { TransactItems: shardCountChangeItems('t', entity, { shards: 1, base: 1 }, { shards: 16, base: 16 }) },
    ],
    [
      'a shard count raised',
      { TransactItems: shardCountChangeItems('t', entity, { shards: 2, base: 2 }, { shards: 5, base: 2 }) },
    ],
  ]);

  it('changes the count in one transaction of every shard, within its 100 items, conditioned on the count read', () => {
    const items = shardCountChangeItems('t', entity, { shards: 5, base: 2 }, { shards: MAX_SHARDS, base: 2 });
    expect(items.length).toBe(MAX_SHARDS);
    expect(items.length).toBeLessThanOrEqual(100);
    expect(items.map((item) => item.Update?.Key?.SK)).toEqual([
      'COUNTERS',
      ...Array.from({ length: MAX_SHARDS - 1 }, (_, shard) => `COUNTERS#${shard + 1}`),
    ]);
    const shardZero = items[0]!.Update!;
    expect(Object.values(shardZero.ExpressionAttributeValues ?? {})).toEqual(
      expect.arrayContaining([MAX_SHARDS, 2, 5]),
    );
    expect(shardZero.ConditionExpression).toBeDefined();
    expect(items.slice(1).every((item) => item.Update!.ConditionExpression === undefined)).toBe(true);
  });
});
