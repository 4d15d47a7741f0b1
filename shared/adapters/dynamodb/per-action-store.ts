import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { bucketOf } from '../../domain/limits/periods';
import {
  ACTION_COUNTER_PREFIX,
  ACTION_LIMIT_PREFIX,
  actionCounterKey,
  actionLimitKey,
  actionSwitchKey,
  entityPK,
  itemKeyText,
  type ItemKey,
} from '../../table/keys';
import { type EntityType } from '../../domain/levels';
import type { Item, TableStore } from './table-store';
import type { PerActionCaps } from '../../domain/per-action/per-action-change';

export interface PerActionLimit extends PerActionCaps {
  id: number;
  entityType: EntityType;
  entityId: number;
  actionId: number;
  version: number;
}

export const perActionFromItem = (item: Item): PerActionLimit => ({
  id: Number(item.id),
  entityType: item.entityType as EntityType,
  entityId: Number(item.entityId),
  actionId: Number(item.actionId),
  dailyConversionsLimit: Number(item.dailyConversionsLimit ?? 0),
  totalConversionsLimit: Number(item.totalConversionsLimit ?? 0),
  version: Number(item.version ?? 1),
});

/** The per-action records of an entity and its switch, in one query (`ACTION#…` and `ACTION_SWITCH` sort together). */
export const loadPerAction = async (
  store: TableStore,
  type: EntityType,
  id: number,
): Promise<{ limits: PerActionLimit[]; enabled: boolean }> => {
  const items = await store.queryPartition(entityPK(type, id), 'ACTION');
  return {
    limits: items.filter((item) => String(item.SK).startsWith(ACTION_LIMIT_PREFIX)).map(perActionFromItem),
    enabled: items.some((item) => item.SK === actionSwitchKey(type, id).SK && item.enabled === true),
  };
};

export const currentActionCounterKeys = (type: EntityType, id: number, actionId: number, now: Date) => ({
  daily: actionCounterKey(type, id, actionId, bucketOf('daily', now)),
  total: actionCounterKey(type, id, actionId, bucketOf('total', now)),
});

export interface ActionCounters {
  daily: number;
  total: number;
}

/** Today's and the total conversions of each (entity, action), in one batch read, in the order asked. */
export const loadActionCounters = async (
  store: TableStore,
  targets: readonly { type: EntityType; id: number; actionId: number }[],
  now: Date,
): Promise<ActionCounters[]> => {
  const keys = targets.map(({ type, id, actionId }) => currentActionCounterKeys(type, id, actionId, now));
  const items = new Map(
    (await store.batchGet(keys.flatMap((key) => [key.daily, key.total]))).map((item) => [
      itemKeyText(item as ItemKey),
      item,
    ]),
  );
  const conversions = (key: ItemKey) => Number(items.get(itemKeyText(key))?.conversions ?? 0);
  return keys.map((key) => ({ daily: conversions(key.daily), total: conversions(key.total) }));
};

/** Upserts one record, conditioned on the version read (or on absence), and optionally turns the switch on. */
export const savePerActionRequest = (
  tableName: string,
  record: Omit<PerActionLimit, 'version'>,
  previousVersion: number | undefined,
  switchOn: boolean,
): TransactWriteCommandInput => ({
  TransactItems: [
    {
      Put: {
        TableName: tableName,
        Item: {
          ...actionLimitKey(record.entityType, record.entityId, record.actionId),
          ...record,
          version: (previousVersion ?? 0) + 1,
        },
        ...(previousVersion === undefined
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': previousVersion } }),
      },
    },
    ...(switchOn
      ? [
          {
            Put: {
              TableName: tableName,
              Item: { ...actionSwitchKey(record.entityType, record.entityId), enabled: true },
            },
          },
        ]
      : []),
  ],
});

/** Deletes records only if each is still the record read (same id): all or nothing. */
export const deletePerActionRequest = (
  tableName: string,
  limits: readonly PerActionLimit[],
): TransactWriteCommandInput => ({
  TransactItems: limits.map((limit) => ({
    Delete: {
      TableName: tableName,
      Key: actionLimitKey(limit.entityType, limit.entityId, limit.actionId),
      ConditionExpression: 'id = :id',
      ExpressionAttributeValues: { ':id': limit.id },
    },
  })),
});

/** Counter buckets of the given actions on an entity, so that a limit created again starts from zero. */
export const deleteActionCounters = async (
  store: TableStore,
  type: EntityType,
  id: number,
  actionIds: readonly number[],
): Promise<void> => {
  const pk = entityPK(type, id);
  const counters = await store.queryPartition(pk, ACTION_COUNTER_PREFIX);
  const wanted = new Set(actionIds.map((actionId) => `${ACTION_COUNTER_PREFIX}${actionId}#`));
  const keys: ItemKey[] = counters
    .map((item) => String(item.SK))
    .filter((sk) => [...wanted].some((prefix) => sk.startsWith(prefix)))
    .map((SK) => ({ PK: pk, SK }));
  await store.batchWrite([], keys);
};
