import type { PutCommandInput } from '@aws-sdk/lib-dynamodb';
import { type Entity } from '../../domain/access';
import { entityFromItem } from './grants-store';
import {
  COUNTER_PREFIX,
  counterKey,
  entityKey,
  LIMIT_SK,
  limitKey,
  noConversionKey,
  sequenceKey,
  type ItemKey,
} from '../../table/keys';
import { type EntityType } from '../../domain/levels';
import type { Item, TableStore } from './table-store';
import { PERIODS, type Period } from '../../domain/limits/metrics';
import type { LimitRecord, LimitState } from '../../domain/limits/limit-record';
import type { CurrentBuckets } from '../../domain/limits/limit-view';
import { bucketOf } from '../../domain/limits/periods';

export interface EntityLimit {
  entity?: Entity;
  limit?: LimitRecord;
  buckets: CurrentBuckets;
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

/** Keys of the current counter buckets of an entity, one per period. */
export const currentBucketKeys = (type: EntityType, id: number, now: Date): { period: Period; key: ItemKey }[] =>
  PERIODS.map((period) => ({ period, key: counterKey(type, id, bucketOf(period, now)) }));

/** Splits the items of one entity's batch read into entity, limit and current buckets. */
export const entityLimitFromItems = (type: EntityType, id: number, items: readonly Item[], now: Date): EntityLimit => {
  const bySortKey = new Map(
    items.filter((item) => item.PK === entityKey(type, id).PK).map((item) => [String(item.SK), item]),
  );
  const buckets: CurrentBuckets = {};
  for (const { period, key } of currentBucketKeys(type, id, now)) {
    const bucket = bySortKey.get(key.SK);
    if (bucket) buckets[period] = bucket;
  }
  return { entity: entityFromItem(bySortKey.get('ENTITY')), limit: limitFromItem(bySortKey.get(LIMIT_SK)), buckets };
};

export const entityLimitKeys = (type: EntityType, id: number, now: Date, withCounters = true): ItemKey[] => [
  entityKey(type, id),
  limitKey(type, id),
  ...(withCounters ? currentBucketKeys(type, id, now).map(({ key }) => key) : []),
];

/**
 * Entity, limit record and current counter buckets in one BatchGetItem. Exact keys, rather than a query of the
 * partition, so that old daily buckets awaiting TTL are never read.
 */
export const loadEntityLimit = async (
  store: TableStore,
  type: EntityType,
  id: number,
  now: Date,
): Promise<EntityLimit> => entityLimitFromItems(type, id, await store.batchGet(entityLimitKeys(type, id, now)), now);

export const loadLimit = async (store: TableStore, type: EntityType, id: number): Promise<LimitRecord | undefined> =>
  limitFromItem(await store.get(limitKey(type, id)));

/** Puts the record at `version + 1`, on condition that it is still at the version read (or still absent). */
export const saveLimitRequest = (
  type: EntityType,
  entityId: number,
  state: LimitState,
  previous: { id: number; version: number } | undefined,
  limitId: number,
  now: Date,
): Omit<PutCommandInput, 'TableName'> => ({
  Item: {
    ...limitKey(type, entityId),
    id: limitId,
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
  ...(previous
    ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': previous.version } }
    : { ConditionExpression: 'attribute_not_exists(PK)' }),
});

/** The next id of a kind of record, from an atomic counter. */
export const nextId = async (store: TableStore, kind: string): Promise<number> => {
  const result = await store.update({
    Key: sequenceKey(kind),
    UpdateExpression: 'ADD lastId :one',
    ExpressionAttributeValues: { ':one': 1 },
    ReturnValues: 'UPDATED_NEW',
  });
  return Number(result?.lastId);
};

/** Removes the record, every counter bucket and the no-conversion state of an entity. */
export const deleteLimitAndCounters = async (store: TableStore, type: EntityType, id: number): Promise<void> => {
  const partition = entityKey(type, id).PK;
  const counters = await store.queryPartition(partition, COUNTER_PREFIX);
  const keys: ItemKey[] = [
    limitKey(type, id),
    noConversionKey(type, id),
    ...counters.map((item) => ({ PK: partition, SK: String(item.SK) })),
  ];
  await store.batchWrite([], keys);
};
