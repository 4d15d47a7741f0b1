import { describe, expect, it } from 'vitest';
import { shardLayoutOf } from '../../../../shared/adapters/dynamodb/shard-layouts';

describe('the shard layouts', () => {
  it('read the layout shard 0 holds: its count, and the count first set once raised', () => {
    expect(shardLayoutOf(undefined)).toEqual({ shards: 1, base: 1 });
    expect(shardLayoutOf({ shards: 4 })).toEqual({ shards: 4, base: 4 });
    expect(shardLayoutOf({ shards: 5, sb: 2 })).toEqual({ shards: 5, base: 2 });
    expect(shardLayoutOf({ shards: 5, sb: 7 })).toEqual({ shards: 5, base: 5 });
  });
});
