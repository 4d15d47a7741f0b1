import { shardCountOf, UNSHARDED, type ShardLayout } from '../../domain/delivery/counter-shards';
import { entityName, type EntityType } from '../../domain/levels';
import type { Clock } from '../../ports/clock';
import { WarmCache } from '../../support/warm-cache';
import {
  COUNTER_SHARD_PREFIX,
  counterShardKey,
  COUNTERS_SK,
  countersKey,
  entityPK,
  type ItemKey,
} from '../../table/keys';
import { SHARD_BASE_ATTRIBUTE, SHARDS_ATTRIBUTE } from './counter-attributes';
import type { Item, TableStore } from './table-store';

/**
 * A container may keep an entity's shard layout for long (bounded like every warm cache): a count only rises, and a
 * write routed with an older one fails its shard's condition and reads the count again.
 */
const SHARD_COUNT_TTL_MS = 3_600_000;
const knownLayouts = new WarmCache<ShardLayout>(SHARD_COUNT_TTL_MS);

const cacheKey = (store: TableStore, type: EntityType, id: number) => `${store.tableName}|${entityName(type, id)}`;

/** The shard layout this container knows for the entity: unsharded until a read or a write has told it otherwise. */
export const knownShardLayout = (store: TableStore, type: EntityType, id: number, clock: Clock): ShardLayout =>
  knownLayouts.get(cacheKey(store, type, id), clock) ?? UNSHARDED;

/** The shard count this container knows for the entity: 1 until a read or a write has told it otherwise. */
export const knownShardCount = (store: TableStore, type: EntityType, id: number, clock: Clock): number =>
  knownShardLayout(store, type, id, clock).shards;

/** Keeps a layout read from shard 0, unless the container knows a larger count already (a count only rises). */
export const rememberShardLayout = (
  store: TableStore,
  { type, id }: { type: EntityType; id: number },
  layout: ShardLayout,
  clock: Clock,
): void => {
  if (layout.shards > knownShardCount(store, type, id, clock))
    knownLayouts.set(cacheKey(store, type, id), layout, clock);
};

/** The layout shard 0 holds: its count (absent: 1) and the count first set (absent: the count). */
export const shardLayoutOf = (shardZero: Item | undefined): ShardLayout => {
  const shards = shardCountOf(shardZero?.[SHARDS_ATTRIBUTE]);
  const base = shardCountOf(shardZero?.[SHARD_BASE_ATTRIBUTE]);
  return { shards, base: base > 1 && base < shards ? base : shards };
};

/** Shard 0's layout, read strongly consistent (a batch read: the recorder reads the table with BatchGetItem only). */
export const readShardLayout = async (store: TableStore, type: EntityType, id: number): Promise<ShardLayout> =>
  shardLayoutOf((await store.batchGet([countersKey(type, id)]))[0]);

/** The keys of every shard of the entity's counters, shard 0 first. */
export const counterShardKeys = (type: EntityType, id: number, shards: number): ItemKey[] =>
  Array.from({ length: Math.max(1, shards) }, (_, shard) => counterShardKey(type, id, shard));

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
    const stored = shardLayoutOf(shardZero.get(entityPK(type, id)));
    if (stored.shards <= known) return [];
    rememberShardLayout(store, { type, id }, stored, clock);
    return counterShardKeys(type, id, stored.shards).slice(known);
  });
  return missing.length === 0 ? items : [...items, ...(await store.batchGet(missing))];
};
