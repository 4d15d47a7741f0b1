import { describe, expect, it } from 'vitest';
import {
  clearLimitCountersItems,
  deleteLimitRequest,
  saveLimitRequest,
} from '../../../../shared/adapters/dynamodb/limit-store';
import { EMPTY_LIMIT } from '../../../../shared/domain/limits/limit-record';
import { counterShardKey } from '../../../../shared/table/keys';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';

const now = new Date('2026-11-25T12:00:00Z');

/** An entity's stored counter items: none, shard 0 alone, or `count` shards. */
const storedCounters = (count: number) => ({
  keys: Array.from({ length: count }, (_, shard) => counterShardKey('CAMPAIGN', 100, shard)),
  shards: Math.max(1, count),
});

describe("the limit store's requests", () => {
  itBuildsRequestsDynamoDbTakes([
    ['a limit saved anew', saveLimitRequest({ type: 'CAMPAIGN', entityId: 100, state: EMPTY_LIMIT, limitId: 1, now })],
    [
      'a limit saved again',
      saveLimitRequest({
        type: 'CAMPAIGN',
        entityId: 100,
        state: EMPTY_LIMIT,
        previous: { id: 1, version: 4 },
        limitId: 1,
        now,
      }),
    ],
    ['a limit deleted', deleteLimitRequest('CAMPAIGN', 100, 4)],
    ['its counters cleared', { TransactItems: clearLimitCountersItems('t', 'CAMPAIGN', 100, storedCounters(1)) }],
    ['its shards cleared', { TransactItems: clearLimitCountersItems('t', 'CAMPAIGN', 100, storedCounters(3)) }],
    [
      'its absent counters checked',
      { TransactItems: clearLimitCountersItems('t', 'CAMPAIGN', 100, storedCounters(0)) },
    ],
  ]);
});

describe("a limit delete's counter items", () => {
  it('clear every stored shard, check the others still absent, and require the shard count read on shard 0', () => {
    const keys = [counterShardKey('CAMPAIGN', 100, 0), counterShardKey('CAMPAIGN', 100, 2)];
    const items = clearLimitCountersItems('t', 'CAMPAIGN', 100, { keys, shards: 4 });
    expect(items.map((item) => [Object.keys(item)[0], (item.Update ?? item.ConditionCheck)?.Key?.SK])).toEqual([
      ['Update', 'COUNTERS'],
      ['ConditionCheck', 'COUNTERS#1'],
      ['Update', 'COUNTERS#2'],
      ['ConditionCheck', 'COUNTERS#3'],
    ]);
    const shardZero = items[0]!.Update!;
    expect(Object.values(shardZero.ExpressionAttributeNames ?? {})).toContain('shards');
    expect(Object.values(shardZero.ExpressionAttributeValues ?? {})).toContain(4);
    expect(items[2]!.Update!.ConditionExpression).toBeUndefined();
  });
});
