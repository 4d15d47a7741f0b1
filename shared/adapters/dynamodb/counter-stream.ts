import type { DynamoDBRecord } from 'aws-lambda';
import {
  actionCaps,
  crossingsOnSum,
  limitCrossings,
  raisesCappedCounter,
  type CapOnCounter,
  type CounterSnapshot,
  type LimitReached,
} from '../../domain/delivery/limit-reached';
import { ENTITY_TYPES, levelOfType, type EntityType } from '../../domain/levels';
import { METRICS, PERIODS } from '../../domain/limits/cap-axes';
import { ACTION_COUNTER_PREFIX, COUNTER_SHARD_PREFIX, COUNTERS_SK, entityPK, reachedKey } from '../../table/keys';
import { shardCountOf, sumShardStates } from '../../domain/delivery/counter-shards';
import { streamEntityOf } from './history-stream';
import { streamItem, UndecodableRecord } from './stream-images';
import { counterState } from './counter-item-state';
import {
  CAPS_ATTRIBUTE,
  counterAttribute,
  NEAR_CAP_ATTRIBUTE,
  RESET_AT_ATTRIBUTE,
  SHARDS_ATTRIBUTE,
} from './counter-attributes';
import { ACTION_METRICS, ACTION_PERIODS } from '../../domain/limits/cap-axes';
import type { Item, TableStore } from './table-store';

const isCounterSortKey = (sortKey: string): boolean =>
  sortKey === COUNTERS_SK || sortKey.startsWith(COUNTER_SHARD_PREFIX) || sortKey.startsWith(ACTION_COUNTER_PREFIX);

/** A write of a sharded entity's counters: a shard n ≥ 1, or shard 0 once it holds a shard count. */
const isShardWrite = (record: DynamoDBRecord): boolean => {
  const sortKey = record.dynamodb?.Keys?.SK?.S ?? '';
  const shards = record.dynamodb?.NewImage?.[SHARDS_ATTRIBUTE]?.N;
  return sortKey.startsWith(COUNTER_SHARD_PREFIX) || (sortKey === COUNTERS_SK && shardCountOf(shards) > 1);
};

/** A counter item written. */
export const isCounterChange = (record: DynamoDBRecord): boolean =>
  (record.eventName === 'INSERT' || record.eventName === 'MODIFY') &&
  isCounterSortKey(record.dynamodb?.Keys?.SK?.S ?? '');

/**
 * What the trigger's filter criteria pass of the counter writes (the stack declares the same): those marked as
 * maybe having made a counter reach a cap. The others proved they did not (`counter-requests.ts`), so the consumer
 * is invoked for the few writes near a cap, not for every counting write of the network.
 */
export const isNearCapWrite = (record: DynamoDBRecord): boolean =>
  isCounterChange(record) && record.dynamodb?.NewImage?.[NEAR_CAP_ATTRIBUTE]?.BOOL === true;

/** The caps an image says its write was judged against, on the item's own grid. */
const storedCaps = (item: Item, type: EntityType, isAction: boolean): CapOnCounter[] => {
  const stored = item[CAPS_ATTRIBUTE];
  if (stored === undefined) return [];
  if (stored === null || typeof stored !== 'object' || stored instanceof Set || Array.isArray(stored))
    throw new UndecodableRecord(`a counter item whose ${CAPS_ATTRIBUTE} is not a map`);
  const known = isAction
    ? actionCaps({ dailyConversionsLimit: 0, totalConversionsLimit: 0 })
    : levelOfType(type).grid.caps.map(({ name, period, metric }) => ({ name, period, metric, value: 0 }));
  return known.flatMap((cap) => {
    const value = Number(String((stored as Record<string, unknown>)[counterAttribute(cap.period, cap.metric)]));
    return Number.isFinite(value) && value > 0 ? [{ ...cap, value }] : [];
  });
};

const snapshotOf = (image: unknown, isAction: boolean) => {
  if (!image) return undefined;
  const item = streamItem(image);
  const state = isAction ? counterState(item, ACTION_PERIODS, ACTION_METRICS) : counterState(item, PERIODS, METRICS);
  const resetAt = Number(String(item[RESET_AT_ATTRIBUTE]));
  const snapshot: CounterSnapshot = {
    keys: state.keys,
    counters: state.counters,
    ...(state.previous ? { previous: state.previous } : {}),
  };
  return { item, snapshot: Number.isFinite(resetAt) ? { ...snapshot, resetAt } : snapshot };
};

/**
 * The LimitReached events of one table stream record: a counter item's write, judged from its old and new images
 * against the caps the write stored with it. Anything else tells none; so does a sharded entity's write, which
 * `limitReachedOnSum` judges (its images are decoded here all the same). A counter write that cannot be decoded or
 * is not an entity's is an `UndecodableRecord`.
 */
export const limitReachedOf = (record: DynamoDBRecord): LimitReached[] => {
  const sortKey = record.dynamodb?.Keys?.SK?.S ?? '';
  if (!isCounterChange(record)) return [];
  const { type, id } = streamEntityOf(record);
  const isAction = sortKey !== COUNTERS_SK && !sortKey.startsWith(COUNTER_SHARD_PREFIX);
  const after = snapshotOf(record.dynamodb?.NewImage, isAction);
  if (!after) throw new UndecodableRecord('a counter write without its new image');
  const caps = storedCaps(after.item, type, isAction);
  const before = snapshotOf(record.dynamodb?.OldImage, isAction)?.snapshot;
  if (isShardWrite(record) || caps.length === 0) return [];
  const actionId = Number(sortKey.slice(ACTION_COUNTER_PREFIX.length));
  if (isAction && !Number.isSafeInteger(actionId))
    throw new UndecodableRecord(`a per-action counter item of no action: SK ${JSON.stringify(sortKey)}`);
  const target = { type, id, ...(isAction ? { actionId } : {}) };
  const written = record.dynamodb?.ApproximateCreationDateTime;
  const at = written !== undefined ? new Date(written * 1000) : new Date();
  return limitCrossings(target, caps, { before, after: after.snapshot }, at);
};

/** A crossing's marker outlives its period's writes; a total's stays. */
const REACHED_MARKER_SECONDS = 40 * 86_400;

/** The sharded entity a record writes the counters of (`PK`), if it is one. */
export const shardedEntityOf = (record: DynamoDBRecord): string | undefined => {
  const [type] = (record.dynamodb?.Keys?.PK?.S ?? '').split('#');
  return isCounterChange(record) && isShardWrite(record) && ENTITY_TYPES.includes(type as EntityType)
    ? record.dynamodb!.Keys!.PK!.S
    : undefined;
};

/** The shards of an entity, summed, with the latest reset of any of them. */
const summedShards = async (store: TableStore, partition: string): Promise<CounterSnapshot> => {
  const shards = await store.queryPartition(partition, COUNTERS_SK);
  const summed = sumShardStates(
    shards.map((item) => counterState(item, PERIODS, METRICS)),
    PERIODS,
  );
  const resets = shards.map((item) => Number(String(item[RESET_AT_ATTRIBUTE]))).filter(Number.isFinite);
  return {
    keys: summed.keys,
    counters: summed.counters,
    ...(summed.previous ? { previous: summed.previous } : {}),
    ...(resets.length > 0 ? { resetAt: Math.max(...resets) } : {}),
  };
};

/**
 * The LimitReached events of a sharded entity's writes in one stream batch (its records, in order): when one of them
 * raised a capped counter, the shards are read once (one Query of the entity's `COUNTERS*` items) and summed, and
 * each crossing of the sum not yet marked told is told. The caller marks them (`markReachedTold`) once published: a
 * crossing is told once, except when two batches handle the entity's records at the same time (consumers drop
 * repeats by `id`, as they do for any redelivery). One read per entity and batch, whatever the write rate.
 */
export const limitReachedOnSum = async (
  store: TableStore,
  records: readonly DynamoDBRecord[],
): Promise<LimitReached[]> => {
  const [type, id] = (records[0]?.dynamodb?.Keys?.PK?.S ?? '').split('#') as [EntityType, string];
  const target = { type, id: Number(id) };
  const written = records.flatMap((record) => {
    const after = snapshotOf(record.dynamodb?.NewImage, false);
    const caps = after ? storedCaps(after.item, type, false) : [];
    const before = snapshotOf(record.dynamodb?.OldImage, false)?.snapshot;
    const seconds = record.dynamodb?.ApproximateCreationDateTime;
    const at = seconds !== undefined ? new Date(seconds * 1000) : new Date();
    return after && caps.length > 0 ? [{ caps, before, after: after.snapshot, at }] : [];
  });
  // a batch that raised no capped counter cannot have made the sum cross: the shards are not read
  if (!written.some(({ caps, before, after }) => raisesCappedCounter(caps, before, after))) return [];
  const summed = await summedShards(store, entityPK(type, target.id));
  const byId = new Map(
    written
      .flatMap(({ caps, before, after, at }) => crossingsOnSum(target, caps, { before, after, summed }, at))
      .map((crossing) => [crossing.id, crossing]),
  );
  const crossings = [...byId.values()];
  if (crossings.length === 0) return [];
  const told = await store.batchGet(crossings.map((crossing) => reachedKey(type, target.id, crossing.id)));
  return crossings.filter((crossing) => !told.some((item) => item.SK === reachedKey(type, target.id, crossing.id).SK));
};

/** Marks sharded entities' crossings told (after they were published). */
export const markReachedTold = async (store: TableStore, told: readonly LimitReached[], now: Date): Promise<void> => {
  await Promise.all(
    told.map((event) =>
      store.put({
        Item: {
          ...reachedKey(event.entityType, event.entityId, event.id),
          ...(event.bucket === 'T' ? {} : { expiresAt: Math.ceil(now.getTime() / 1000) + REACHED_MARKER_SECONDS }),
        },
      }),
    ),
  );
};
