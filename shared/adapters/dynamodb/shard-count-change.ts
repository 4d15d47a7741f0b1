import { shardCountChange, type ShardLayout } from '../../domain/delivery/counter-shards';
import { WriteConflict } from '../../domain/errors';
import type { EntityType } from '../../domain/levels';
import { entityKey } from '../../table/keys';
import type { TransactItem } from './attribute-values';
import { SHARD_BASE_ATTRIBUTE, SHARD_EPOCH_ATTRIBUTE, SHARDS_ATTRIBUTE } from './counter-attributes';
import { UpdateBuilder } from './expressions';
import { epochCondition } from './shard-epoch';
import { counterShardKeys, readShardLayout } from './shard-layouts';
import type { TableStore } from './table-store';

/**
 * A count change's transaction items, one per shard of the new layout: shard 0 takes the count (and the first
 * count, once raised) on condition that it still holds the count read; every other shard takes the count as its
 * epoch (`sc`), and is created when new. At most `MAX_SHARDS` (96) items, within DynamoDB's 100. Pure.
 */
export const shardCountChangeItems = (
  tableName: string,
  { type, id }: { type: EntityType; id: number },
  from: ShardLayout,
  to: ShardLayout,
): TransactItem[] =>
  counterShardKeys(type, id, to.shards).map((Key, shard) => {
    const update = new UpdateBuilder();
    if (shard > 0) update.set(SHARD_EPOCH_ATTRIBUTE, to.shards);
    else {
      update.set(SHARDS_ATTRIBUTE, to.shards).require(epochCondition({ shard, shards: from.shards, unraised: true }));
      if (to.base !== to.shards) update.set(SHARD_BASE_ATTRIBUTE, to.base);
    }
    return { Update: { TableName: tableName, Key, ...update.build() } };
  });

/** Whether the catalog holds the entity (its `ENTITY` item): only an existing entity's counters are sharded. */
export const entityExists = async (store: TableStore, type: EntityType, id: number): Promise<boolean> =>
  (await store.get(entityKey(type, id))) !== undefined;

/** What a request for a shard count did: the count before, the count now, and whether a lower one was refused. */
export interface ShardCountAnswer {
  from: number;
  shards: number;
  refused?: 'lower';
}

/** Times a count change reads and tries again after another change won the race. */
const COUNT_CHANGE_ATTEMPTS = 3;

/**
 * Sets the entity's shard count: from 1, or raised, in one transaction over every shard; the same count again
 * changes nothing, and a lower one is refused (a group's messages could then reach a shard whose markers are stale).
 */
export const setShardCount = async (
  store: TableStore,
  type: EntityType,
  id: number,
  shards: number,
): Promise<ShardCountAnswer> => {
  for (let attempt = 1; ; attempt++) {
    const current = await readShardLayout(store, type, id);
    const change = shardCountChange(current, shards);
    if (change.kind === 'unchanged') return { from: current.shards, shards };
    if (change.kind === 'lower') return { from: current.shards, shards: current.shards, refused: 'lower' };
    try {
      const TransactItems = shardCountChangeItems(store.tableName, { type, id }, current, change.layout);
      await store.transactWrite({ TransactItems });
      return { from: current.shards, shards };
    } catch (error) {
      if (!(error instanceof WriteConflict) || attempt >= COUNT_CHANGE_ATTEMPTS) throw error;
    }
  }
};
