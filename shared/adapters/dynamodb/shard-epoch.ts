import { shardCountOf } from '../../domain/delivery/counter-shards';
import { SHARD_EPOCH_ATTRIBUTE, SHARDS_ATTRIBUTE } from './counter-attributes';
import { anyOf, attributeAbsent, equals, type Condition } from './expressions';
import type { Item } from './table-store';

/**
 * The shard count a write of an entity's counter item routed its groups with, which the item must still be under:
 * shard 0's `shards` (a count of 1: absent), a shard n ≥ 1's `sc`. `unraised`: the writer's count is the one the
 * entity was first sharded into, so a shard written before counts were marked on every shard may have no `sc` yet.
 */
export interface ShardEpoch {
  shard: number;
  shards: number;
  unraised: boolean;
}

/** The condition that holds a write to its epoch: a count changed since fails it. */
export const epochCondition = ({ shard, shards, unraised }: ShardEpoch): Condition => {
  if (shard === 0) return shards === 1 ? attributeAbsent(SHARDS_ATTRIBUTE) : equals(SHARDS_ATTRIBUTE, shards);
  const counted = equals(SHARD_EPOCH_ATTRIBUTE, shards);
  return unraised ? anyOf(attributeAbsent(SHARD_EPOCH_ATTRIBUTE), counted) : counted;
};

/** Whether the item (as a failed write returned it) is still under the epoch: if not, the count changed. */
export const epochHolds = ({ shard, shards, unraised }: ShardEpoch, item: Item | undefined): boolean => {
  if (shard === 0) return shardCountOf(item?.[SHARDS_ATTRIBUTE]) === shards;
  const stored = item?.[SHARD_EPOCH_ATTRIBUTE];
  return stored === undefined ? unraised : shardCountOf(stored) === shards;
};
