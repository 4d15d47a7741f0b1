import type { PendingMessage } from '../../domain/delivery/counter-plan';
import {
  shardCountChange,
  shardCountOf,
  shardOfGroup,
  UNSHARDED,
  type ShardLayout,
} from '../../domain/delivery/counter-shards';
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
import type { TransactItem, UpdateInput } from './attribute-values';
import {
  applyToCounterItem,
  ShardCountChanged,
  type AppliedCounterWrite,
  type CounterItemWrite,
} from './counter-store';
import { highestGroupMarkers } from './group-marker-items';
import {
  SHARD_BASE_ATTRIBUTE,
  SHARD_EPOCH_ATTRIBUTE,
  SHARDS_ATTRIBUTE,
  TALLY_ATTRIBUTE,
  TALLY_SINCE_ATTRIBUTE,
} from './counter-attributes';
import { epochCondition } from './shard-epoch';
import type { Item, TableStore } from './table-store';
import { equals, UpdateBuilder } from './expressions';

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
  type: EntityType,
  id: number,
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
const readShardLayout = async (store: TableStore, type: EntityType, id: number): Promise<ShardLayout> =>
  shardLayoutOf((await store.batchGet([countersKey(type, id)]))[0]);

/** The keys of every shard of the entity's counters, shard 0 first. */
export const counterShardKeys = (type: EntityType, id: number, shards: number): ItemKey[] =>
  Array.from({ length: Math.max(1, shards) }, (_, shard) => counterShardKey(type, id, shard));

const combined = (results: readonly AppliedCounterWrite[]): AppliedCounterWrite => ({
  ...(results.findLast((result) => result.write) ?? { after: {} }),
  skipped: results.flatMap((result) => result.skipped),
});

/** The results of the shards' writes; those whose count changed are collected into one `ShardCountChanged`. */
const settledShards = (settled: readonly PromiseSettledResult<AppliedCounterWrite>[]): AppliedCounterWrite => {
  const failures = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  const other = failures.find((failure) => !(failure instanceof ShardCountChanged));
  if (other !== undefined) throw other;
  const done = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const changed = failures as ShardCountChanged[];
  if (changed.length === 0) return combined(done);
  throw new ShardCountChanged(
    combined([...done, ...changed.map((failure) => failure.done)]),
    changed.flatMap((failure) => failure.left),
  );
};

/**
 * A sharded entity's messages, each group's to its shard, each write held to the layout's count. A shard n ≥ 1
 * takes as floors the highest markers its groups have on any shard, on the item or beside it (one strongly
 * consistent batch read of every shard and the groups' marker items, when a group is new on the shard): a message applied on another shard, before the entity was sharded or
 * before its count was raised, is not applied again. No other shard takes a group's messages meanwhile: a writer
 * routing with an older count fails its shard's condition, and a group never returns to a shard it left.
 */
const applyToShards = async (
  store: TableStore,
  { type, id, layout }: { type: EntityType; id: number; layout: ShardLayout },
  pending: readonly PendingMessage[],
  options: CounterItemWrite,
): Promise<AppliedCounterWrite> => {
  const byShard = new Map<number, PendingMessage[]>();
  for (const message of pending) {
    const shard = shardOfGroup(message.group, layout.shards, layout.base);
    byShard.set(shard, [...(byShard.get(shard) ?? []), message]);
  }
  const floors = (groups: readonly string[]) =>
    highestGroupMarkers(store, counterShardKeys(type, id, layout.shards), groups);
  const unraised = layout.base === layout.shards;
  const settled = await Promise.allSettled(
    [...byShard].map(([shard, messages]) =>
      applyToCounterItem(
        store,
        { key: counterShardKey(type, id, shard), periods: PERIODS, metrics: METRICS },
        messages,
        { ...options, epoch: { shard, shards: layout.shards, unraised }, ...(shard === 0 ? {} : { floors }) },
      ),
    ),
  );
  return settledShards(settled);
};

/** An entity's counters as written: the write's answer, and shard 0's write tally when the write counted in it. */
export type AppliedEntityWrite = AppliedCounterWrite & { tally?: { writes: number; since: number } };

const tallyOf = (after: Item): AppliedEntityWrite['tally'] => {
  const writes = Number(after[TALLY_ATTRIBUTE]);
  const since = Number(after[TALLY_SINCE_ATTRIBUTE]);
  return Number.isFinite(writes) && Number.isFinite(since) ? { writes, since } : undefined;
};

/** An unsharded entity's counters: shard 0, on condition that the entity has no shards, tallied when asked. */
const applyUnsharded = async (
  store: TableStore,
  { type, id }: { type: EntityType; id: number },
  pending: readonly PendingMessage[],
  options: Omit<CounterItemWrite, 'epoch' | 'floors'>,
): Promise<AppliedEntityWrite> => {
  const item = { key: countersKey(type, id), periods: PERIODS, metrics: METRICS };
  const epoch = { shard: 0, shards: 1, unraised: true };
  const applied = await applyToCounterItem(store, item, pending, { ...options, epoch });
  const tally = options.tallyAt !== undefined && applied.write ? tallyOf(applied.after) : undefined;
  return tally ? { ...applied, tally } : applied;
};

/** How many times a batch's writes to one entity follow a changed shard count (one change costs one). */
const MAX_LAYOUTS = 4;

/**
 * Applies pending messages to an entity's counters exactly once, shard by shard, routed with the shard layout this
 * container knows (unsharded: one item, counted in its write tally when `tallyAt` is given). A write that finds the
 * count changed reads shard 0's layout again, and the messages not applied yet are routed with it.
 */
export const applyToEntityCounters = async (
  store: TableStore,
  type: EntityType,
  id: number,
  pending: readonly PendingMessage[],
  clock: Clock,
  options: Omit<CounterItemWrite, 'epoch' | 'floors'>,
): Promise<AppliedEntityWrite> => {
  // only an unsharded entity's one item tallies its writes
  const write: CounterItemWrite = { ...options };
  delete write.tallyAt;
  const done: AppliedCounterWrite[] = [];
  let left = pending;
  let layout = knownShardLayout(store, type, id, clock);
  for (let attempt = 1; ; attempt++) {
    try {
      const applied =
        layout.shards > 1
          ? await applyToShards(store, { type, id, layout }, left, write)
          : await applyUnsharded(store, { type, id }, left, options);
      return done.length === 0 ? applied : combined([...done, applied]);
    } catch (error) {
      if (!(error instanceof ShardCountChanged) || attempt >= MAX_LAYOUTS) throw error;
      done.push(error.done);
      left = error.left;
      layout = await readShardLayout(store, type, id);
      rememberShardLayout(store, type, id, layout, clock);
    }
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
    rememberShardLayout(store, type, id, stored, clock);
    return counterShardKeys(type, id, stored.shards).slice(known);
  });
  return missing.length === 0 ? items : [...items, ...(await store.batchGet(missing))];
};
