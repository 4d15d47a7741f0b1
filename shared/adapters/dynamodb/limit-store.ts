import type { PutInput, TransactItem } from './attribute-values';
import { type Entity } from '../../domain/access';
import { entityFromItem } from './grants-store';
import { entityKey, historyHeadKey, LIMIT_SK, limitKey, sequenceKey, type ItemKey } from '../../table/keys';
import { counterState } from './counter-item-state';
import {
  counterAttribute,
  keyAttribute,
  QUIET_IMPRESSIONS_ATTRIBUTE,
  QUIET_SINCE_ATTRIBUTE,
  SHARDS_ATTRIBUTE,
} from './counter-attributes';
import {
  counterShardKeys,
  isCounterShard,
  knownShardCount,
  storedCounterItems,
  withEveryShard,
  type StoredCounterItems,
} from './shard-layouts';
import { sumShardStates } from '../../domain/delivery/counter-shards';
import { currentCounters, type CounterState, type CurrentCounters } from '../../domain/delivery/counter-state';
import { type EntityType } from '../../domain/levels';
import { historyVersionOf } from './history-store';
import type { Item, TableStore } from './table-store';
import { METRICS, PERIODS } from '../../domain/limits/cap-axes';
import type { LimitRecord, LimitState } from '../../domain/limits/limit-record';
import { conditionExpression, attributeAbsent, equals, removeAttributes, UpdateBuilder } from './expressions';

export interface EntityLimit {
  entity?: Entity;
  limit?: LimitRecord;
  /** The counter item as stored, and the counters that count at the time of the read. */
  counterState: CounterState;
  counters: CurrentCounters;
  /** The entity's counter items as stored (shard 0 first, when stored), with the shard count shard 0 holds: a
   * delete clears every one, or checks that none appeared. */
  counterItems: StoredCounterItems;
  /** The version of the entity's newest history entry (read only for writes; 0 otherwise). */
  historyVersion: number;
}

/** A stored limit item as the domain's record. */
export const limitFromItem = (item: Item | undefined): LimitRecord | undefined =>
  item
    ? {
        id: Number(item.id),
        version: Number(item.version),
        caps: (item.caps as Record<string, number> | undefined) ?? {},
        ...(item.startDate !== undefined ? { startDate: Number(item.startDate) } : {}),
        ...(item.endDate !== undefined ? { endDate: Number(item.endDate) } : {}),
        evenPacing: item.evenPacing === true,
        useLocalTime: item.useLocalTime === true,
        timezoneOffset: Number(item.timezoneOffset ?? 0),
      }
    : undefined;

/** Splits the items of one entity's batch read into entity, limit and counters (the sum of its shards). */
export const entityLimitFromItems = (type: EntityType, id: number, items: readonly Item[], now: Date): EntityLimit => {
  const { PK } = entityKey(type, id);
  const own = items.filter((item) => item.PK === PK);
  const bySortKey = new Map(own.map((item) => [String(item.SK), item]));
  const shards = own.filter(isCounterShard).map((item) => counterState(item, PERIODS, METRICS));
  const state = shards.length === 0 ? counterState(undefined, PERIODS, METRICS) : sumShardStates(shards, PERIODS);
  return {
    entity: entityFromItem(bySortKey.get('ENTITY')),
    limit: limitFromItem(bySortKey.get(LIMIT_SK)),
    counterState: state,
    counters: currentCounters(state, now),
    counterItems: storedCounterItems(own),
    historyVersion: historyVersionOf(bySortKey.get(historyHeadKey(type, id).SK)),
  };
};

/** How much of an entity's partition a caller reads: the entity alone, with its limit, or with its counters too. */
export type EntityReads = 'entity' | 'limit' | 'counters';

/** One entity's read: which entity, how much of its partition, and whether a write follows (its history version). */
export interface EntityRead {
  type: EntityType;
  id: number;
  /** Default: `'counters'`. */
  reads?: EntityReads;
  /** Default: `false`. */
  forWrite?: boolean;
}

/** The keys of one entity's read; `shards`: as many as the reader knows the entity's counters have (default 1). */
export const entityLimitKeys = ({
  type,
  id,
  reads = 'counters',
  forWrite = false,
  shards = 1,
}: EntityRead & { shards?: number }): ItemKey[] => [
  entityKey(type, id),
  ...(reads !== 'entity' ? [limitKey(type, id)] : []),
  ...(reads === 'counters' ? counterShardKeys(type, id, shards) : []),
  ...(forWrite ? [historyHeadKey(type, id)] : []),
];

/**
 * Entity, limit record and counter item (every shard the container knows of), as far as the caller has a use for
 * them, in one BatchGetItem; a write reads the entity's history version with them. The first read of a sharded
 * entity in a container reads its other shards after.
 */
export const loadEntityLimit = async (
  store: TableStore,
  { type, id, now, reads = 'counters', forWrite = false }: EntityRead & { now: Date },
): Promise<EntityLimit> => {
  const clock = { now: () => now };
  const keys = entityLimitKeys({ type, id, reads, forWrite, shards: knownShardCount(store, type, id, clock) });
  const items = await store.batchGet(keys);
  const all = reads === 'counters' ? await withEveryShard(store, [[type, id]], items, clock) : items;
  return entityLimitFromItems(type, id, all, now);
};

export const loadLimit = async (store: TableStore, type: EntityType, id: number): Promise<LimitRecord | undefined> =>
  limitFromItem(await store.get(limitKey(type, id)));

/** A write's second and later attempts: the record, the entity's history version and its counter items, again together. */
export const loadLimitForWrite = async (
  store: TableStore,
  type: EntityType,
  id: number,
  now: Date,
): Promise<{ limit?: LimitRecord; historyVersion: number; counterItems: StoredCounterItems }> => {
  const { limit, historyVersion, counterItems } = await loadEntityLimit(store, { type, id, now, forWrite: true });
  return { historyVersion, counterItems, ...(limit ? { limit } : {}) };
};

/** Puts the record at `version + 1`, on condition that it is still at the version read (or still absent). */
export const saveLimitRequest = ({
  type,
  entityId,
  state,
  previous,
  limitId,
  now,
}: {
  type: EntityType;
  entityId: number;
  state: LimitState;
  /** The record as read; absent when there was none. */
  previous?: { id: number; version: number };
  limitId: number;
  now: Date;
}): PutInput => ({
  Item: {
    id: limitId,
    ...limitKey(type, entityId),
    entityType: type,
    entityId,
    caps: state.caps,
    ...(state.startDate !== undefined ? { startDate: state.startDate } : {}),
    ...(state.endDate !== undefined ? { endDate: state.endDate } : {}),
    evenPacing: state.evenPacing,
    useLocalTime: state.useLocalTime,
    timezoneOffset: state.timezoneOffset,
    version: (previous?.version ?? 0) + 1,
    updatedAt: now.toISOString(),
  },
  ...conditionExpression(previous ? equals('version', previous.version) : attributeAbsent('PK')),
});

/** The next id of a kind of record, from an atomic counter. */
export const nextId = async (store: TableStore, kind: string): Promise<number> => {
  const result = await store.update({
    Key: sequenceKey(kind),
    ...new UpdateBuilder().add('lastId', 1).build(),
    ReturnValues: 'UPDATED_NEW',
  });
  return Number(result?.lastId);
};

/** Deletes the record on condition that it is still at the version read. */
export const deleteLimitRequest = (type: EntityType, id: number, version: number) => ({
  Key: limitKey(type, id),
  ...conditionExpression(equals('version', version)),
});

const CLEARED_COUNTERS = [
  ...PERIODS.flatMap((period) => METRICS.map((metric) => counterAttribute(period, metric))),
  ...PERIODS.filter((period) => period !== 'total').flatMap((period) => [
    keyAttribute(period),
    keyAttribute(period, 'previous'),
    ...METRICS.map((metric) => counterAttribute(period, metric, 'previous')),
  ]),
  QUIET_SINCE_ATTRIBUTE,
  QUIET_IMPRESSIONS_ATTRIBUTE,
];

/**
 * The delete's transaction items for the entity's counters, one per shard of the count read: a stored shard has
 * every counter and the no-conversion state cleared (it keeps which delivery messages it applied, so that one
 * delivered again after the delete cannot count a second time); a shard not stored is checked still absent; and
 * shard 0 must still hold the count read. A shard written or a count set meanwhile makes the delete read again.
 */
export const clearLimitCountersItems = (
  tableName: string,
  type: EntityType,
  id: number,
  { keys, shards }: StoredCounterItems,
): TransactItem[] => {
  const stored = new Set(keys.map((key) => key.SK));
  return counterShardKeys(type, id, shards).map((Key, shard): TransactItem => {
    if (!stored.has(Key.SK))
      return { ConditionCheck: { TableName: tableName, Key, ...conditionExpression(attributeAbsent('PK')) } };
    const countUnchanged =
      shard !== 0 ? undefined : shards === 1 ? attributeAbsent(SHARDS_ATTRIBUTE) : equals(SHARDS_ATTRIBUTE, shards);
    return { Update: { TableName: tableName, Key, ...removeAttributes(CLEARED_COUNTERS, countUnchanged) } };
  });
};
