import type { PendingMessage } from '../../domain/delivery/counter-plan';
import { shardCountOf, shardOfGroup } from '../../domain/delivery/counter-shards';
import { WriteConflict } from '../../domain/errors';
import { entityName, type EntityType } from '../../domain/levels';
import { METRICS, PERIODS } from '../../domain/limits/cap-axes';
import type { Clock } from '../../ports/clock';
import { WarmCache } from '../../support/warm-cache';
import {
  COUNTER_SHARD_PREFIX,
  counterShardKey,
  COUNTERS_SK,
  countersKey,
  entityKey,
  entityPK,
  type ItemKey,
} from '../../table/keys';
import type { UpdateInput } from './attribute-values';
import { applyToCounterItem, EntityIsSharded, type AppliedCounterWrite, type CounterItemWrite } from './counter-store';
import { groupMarkersOn } from './group-marker-items';
import { SHARDS_ATTRIBUTE, TALLY_ATTRIBUTE, TALLY_SINCE_ATTRIBUTE } from './counter-attributes';
import type { Item, TableStore } from './table-store';
import { anyOf, attributeAbsent, equals, UpdateBuilder } from './expressions';

/** A shard count never changes once set: a container may keep it for long (bounded like every warm cache). */
const SHARD_COUNT_TTL_MS = 3_600_000;
const knownCounts = new WarmCache<number>(SHARD_COUNT_TTL_MS);

const cacheKey = (store: TableStore, type: EntityType, id: number) => `${store.tableName}|${entityName(type, id)}`;

/** The shard count this container knows for the entity: 1 until a read or a write has told it otherwise. */
export const knownShardCount = (store: TableStore, type: EntityType, id: number, clock: Clock): number =>
  knownCounts.get(cacheKey(store, type, id), clock) ?? 1;

export const rememberShardCount = (
  store: TableStore,
  type: EntityType,
  id: number,
  shards: number,
  clock: Clock,
): void => {
  if (shards > 1) knownCounts.set(cacheKey(store, type, id), shards, clock);
};

/** The keys of every shard of the entity's counters, shard 0 first. */
export const counterShardKeys = (type: EntityType, id: number, shards: number): ItemKey[] =>
  Array.from({ length: Math.max(1, shards) }, (_, shard) => counterShardKey(type, id, shard));

const combined = (results: readonly AppliedCounterWrite[]): AppliedCounterWrite => ({
  ...(results.findLast((result) => result.write) ?? { after: {} }),
  skipped: results.flatMap((result) => result.skipped),
});

/**
 * A sharded entity's messages, each group's to its shard. A shard n ≥ 1 takes the markers its groups left on shard
 * 0 before the entity was sharded, on the item or beside it, as floors (read when a group is new on the shard): a message applied there
 * is not applied again. Those markers no longer change: every write of shard 0 by a writer that took the entity as
 * unsharded requires it unsharded.
 */
const applyToShards = async (
  store: TableStore,
  type: EntityType,
  id: number,
  pending: readonly PendingMessage[],
  shards: number,
  options: CounterItemWrite,
): Promise<AppliedCounterWrite> => {
  const byShard = new Map<number, PendingMessage[]>();
  for (const message of pending) {
    const shard = shardOfGroup(message.group, shards);
    byShard.set(shard, [...(byShard.get(shard) ?? []), message]);
  }
  const floors = (groups: readonly string[]) => groupMarkersOn(store, countersKey(type, id), groups);
  const results = await Promise.all(
    [...byShard].map(([shard, messages]) =>
      applyToCounterItem(
        store,
        { key: counterShardKey(type, id, shard), periods: PERIODS, metrics: METRICS },
        messages,
        {
          ...options,
          ...(shard === 0 ? {} : { floors }),
        },
      ),
    ),
  );
  return combined(results);
};

/** An entity's counters as written: the write's answer, and shard 0's write tally when the write counted in it. */
export type AppliedEntityWrite = AppliedCounterWrite & { tally?: { writes: number; since: number } };

const tallyOf = (after: Item): AppliedEntityWrite['tally'] => {
  const writes = Number(after[TALLY_ATTRIBUTE]);
  const since = Number(after[TALLY_SINCE_ATTRIBUTE]);
  return Number.isFinite(writes) && Number.isFinite(since) ? { writes, since } : undefined;
};

/**
 * Applies pending messages to an entity's counters exactly once, shard by shard. An entity this container has not
 * seen sharded is written as one item on condition that it is not sharded (counted in its write tally when
 * `tallyAt` is given); when it is, the condition fails, the container learns the shard count, and the messages are
 * written to their shards.
 */
export const applyToEntityCounters = async (
  store: TableStore,
  type: EntityType,
  id: number,
  pending: readonly PendingMessage[],
  clock: Clock,
  options: Omit<CounterItemWrite, 'requireUnsharded' | 'floors'>,
): Promise<AppliedEntityWrite> => {
  const { tallyAt, ...write } = options;
  const known = knownShardCount(store, type, id, clock);
  if (known > 1) return applyToShards(store, type, id, pending, known, write);
  try {
    const key = countersKey(type, id);
    const applied = await applyToCounterItem(store, { key, periods: PERIODS, metrics: METRICS }, pending, {
      ...options,
      requireUnsharded: true,
    });
    const tally = tallyAt !== undefined && applied.write ? tallyOf(applied.after) : undefined;
    return tally ? { ...applied, tally } : applied;
  } catch (error) {
    if (!(error instanceof EntityIsSharded)) throw error;
    rememberShardCount(store, type, id, error.shards, clock);
    return applyToShards(store, type, id, pending, error.shards, write);
  }
};

/** Starts shard 0's write tally again at `now`, if it still began at `since` (another writer may have). Pure. */
export const restartTallyRequest = (type: EntityType, id: number, since: number, now: number): UpdateInput => {
  const update = new UpdateBuilder()
    .set(TALLY_ATTRIBUTE, 0)
    .set(TALLY_SINCE_ATTRIBUTE, now)
    .require(equals(TALLY_SINCE_ATTRIBUTE, since));
  return { Key: countersKey(type, id), ...update.build() };
};

/** Sets the entity's shard count on shard 0: once, from 1 to N; setting the same N again changes nothing. Pure. */
export const shardCountRequest = (type: EntityType, id: number, shards: number): UpdateInput => {
  const update = new UpdateBuilder()
    .set(SHARDS_ATTRIBUTE, shards)
    .require(anyOf(attributeAbsent(SHARDS_ATTRIBUTE), equals(SHARDS_ATTRIBUTE, shards)));
  return { Key: countersKey(type, id), ...update.build() };
};

/** Whether the catalog holds the entity (its `ENTITY` item): only an existing entity's counters are sharded. */
export const entityExists = async (store: TableStore, type: EntityType, id: number): Promise<boolean> =>
  (await store.get(entityKey(type, id))) !== undefined;

/** Shards the entity's counters; answers the count it has now (a different one set before stays). */
export const setShardCount = async (store: TableStore, type: EntityType, id: number, shards: number) => {
  try {
    await store.update(shardCountRequest(type, id, shards));
    return shards;
  } catch (error) {
    if (!(error instanceof WriteConflict)) throw error;
    // a batch read: the recorder (automatic sharding) may read the table with BatchGetItem only
    const [item] = await store.batchGet([countersKey(type, id)]);
    return shardCountOf(item?.[SHARDS_ATTRIBUTE]);
  }
};

/** Whether an item is one of an entity's counter shards (`COUNTERS`, `COUNTERS#<n>`). */
export const isCounterShard = (item: Item): boolean =>
  item.SK === COUNTERS_SK || String(item.SK).startsWith(COUNTER_SHARD_PREFIX);

/** The keys of an entity's counter shards found stored, and the shard count its shard 0 holds (1: none). */
export interface StoredCounterItems {
  keys: ItemKey[];
  shards: number;
}

export const storedCounterItems = (items: readonly Item[]): StoredCounterItems => {
  const stored = items.filter(isCounterShard);
  return {
    keys: stored.map((item) => ({ PK: String(item.PK), SK: String(item.SK) })),
    shards: shardCountOf(stored.find((item) => item.SK === COUNTERS_SK)?.[SHARDS_ATTRIBUTE]),
  };
};

/**
 * Completes a batch read that asked for each entity's counter shards as this container knew them: an entity whose
 * shard 0 tells more shards is read again for the others (all such entities in one batch read), and its count is
 * kept, so that the container's next read asks for every shard at once.
 */
export const withEveryShard = async (
  store: TableStore,
  entities: readonly (readonly [EntityType, number])[],
  items: Item[],
  clock: Clock,
): Promise<Item[]> => {
  const shardZero = new Map(
    items.filter((item) => item.SK === COUNTERS_SK).map((item) => [String(item.PK), item] as const),
  );
  const missing = entities.flatMap(([type, id]) => {
    const known = knownShardCount(store, type, id, clock);
    const stored = shardCountOf(shardZero.get(entityPK(type, id))?.[SHARDS_ATTRIBUTE]);
    if (stored <= known) return [];
    rememberShardCount(store, type, id, stored, clock);
    return counterShardKeys(type, id, stored).slice(known);
  });
  return missing.length === 0 ? items : [...items, ...(await store.batchGet(missing))];
};
