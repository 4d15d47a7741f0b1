import type { TransactWriteInput } from './attribute-values';
import { currentCounters } from '../../domain/delivery/counter-state';
import { ACTION_METRICS, ACTION_PERIODS } from '../../domain/limits/cap-axes';
import {
  ACTION_LIMIT_PREFIX,
  actionCountersKey,
  actionKey,
  actionLimitKey,
  actionSwitchKey,
  entityPK,
  historyHeadKey,
  itemKeyText,
  type ItemKey,
} from '../../table/keys';
import { historyVersionOf } from './history-store';
import { counterState } from './counter-item-state';
import { counterAttribute, keyAttribute } from './counter-attributes';
import { type EntityType } from '../../domain/levels';
import type { Item, TableStore } from './table-store';
import type { PerActionCaps } from '../../domain/per-action/per-action-change';
import { conditionExpression, attributeAbsent, equals, removeAttributes } from './expressions';

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

// the recorder, the flush and the counter stream read the per-action axes from here

/** `ACTION#…` limits, `ACTION_SWITCH` and `ACTCTR#…` counters all sort under this prefix. */
export const ACTION_ITEMS_PREFIX = 'ACT';

export interface ActionCounters {
  daily: bigint;
  total: bigint;
}

/** Today's and the total conversions in a per-action counter item (none: 0). */
export const actionCountersFromItem = (item: Item | undefined, now: Date): ActionCounters => {
  const counters = currentCounters(counterState(item, ACTION_PERIODS, ACTION_METRICS), now);
  return { daily: counters.daily?.conversions ?? 0n, total: counters.total?.conversions ?? 0n };
};

/** The per-action records of an entity, their counters and its switch, in one query. */
export const loadPerAction = async (
  store: TableStore,
  type: EntityType,
  id: number,
  now: Date,
): Promise<{
  limits: PerActionLimit[];
  enabled: boolean;
  counters: (actionId: number) => ActionCounters;
  countersStored: (actionId: number) => boolean;
}> => {
  const items = await store.queryPartition(entityPK(type, id), ACTION_ITEMS_PREFIX);
  const bySortKey = new Map(items.map((item) => [String(item.SK), item]));
  return {
    limits: items.filter((item) => String(item.SK).startsWith(ACTION_LIMIT_PREFIX)).map(perActionFromItem),
    enabled: bySortKey.get(actionSwitchKey(type, id).SK)?.enabled === true,
    counters: (actionId) => actionCountersFromItem(bySortKey.get(actionCountersKey(type, id, actionId).SK), now),
    countersStored: (actionId) => bySortKey.has(actionCountersKey(type, id, actionId).SK),
  };
};

/** What a change of one action's limit reads, with its entity: the action, the limit, switch, counters, history. */
export const actionLimitKeys = (type: EntityType, id: number, actionId: number): ItemKey[] => [
  actionKey(actionId),
  actionLimitKey(type, id, actionId),
  actionSwitchKey(type, id),
  actionCountersKey(type, id, actionId),
  historyHeadKey(type, id),
];

export interface ActionLimitState {
  /** Whether the action exists at all. */
  actionExists: boolean;
  limit?: PerActionLimit;
  /** The entity's per-action switch. */
  enabled: boolean;
  counters: ActionCounters;
  historyVersion: number;
}

/** One action's limit and what goes with it, from the items of a read of `actionLimitKeys` (other items ignored). */
export const actionLimitFromItems = (
  { type, id, actionId }: { type: EntityType; id: number; actionId: number },
  items: readonly Item[],
  now: Date,
): ActionLimitState => {
  const byKey = new Map(items.map((item) => [itemKeyText(item as ItemKey), item]));
  const read = (key: ItemKey) => byKey.get(itemKeyText(key));
  const limit = read(actionLimitKey(type, id, actionId));
  return {
    actionExists: read(actionKey(actionId)) !== undefined,
    ...(limit ? { limit: perActionFromItem(limit) } : {}),
    enabled: read(actionSwitchKey(type, id))?.enabled === true,
    counters: actionCountersFromItem(read(actionCountersKey(type, id, actionId)), now),
    historyVersion: historyVersionOf(read(historyHeadKey(type, id))),
  };
};

/** A write's later attempts: the limit and the entity's history version, read again together. */
export const loadActionLimitForWrite = async (
  store: TableStore,
  type: EntityType,
  id: number,
  actionId: number,
): Promise<{ limit?: PerActionLimit; historyVersion: number }> => {
  const items = await store.batchGet([actionLimitKey(type, id, actionId), historyHeadKey(type, id)]);
  const bySortKey = new Map(items.map((item) => [String(item.SK), item]));
  const limit = bySortKey.get(actionLimitKey(type, id, actionId).SK);
  return {
    ...(limit ? { limit: perActionFromItem(limit) } : {}),
    historyVersion: historyVersionOf(bySortKey.get(historyHeadKey(type, id).SK)),
  };
};

/** Whether the entity's per-action limits are switched on. */
export const loadActionSwitch = async (store: TableStore, type: EntityType, id: number): Promise<boolean> =>
  (await store.get(actionSwitchKey(type, id)))?.enabled === true;

/** The transaction item that sets the entity's per-action switch. */
export const actionSwitchItem = (tableName: string, type: EntityType, id: number, enabled: boolean) => ({
  Put: { TableName: tableName, Item: { enabled, ...actionSwitchKey(type, id) } },
});

/** Upserts one record, conditioned on the version read (or on absence), and optionally turns the switch on. */
export const savePerActionRequest = (
  tableName: string,
  record: Omit<PerActionLimit, 'version'>,
  previousVersion: number | undefined,
  switchOn: boolean,
): TransactWriteInput => ({
  TransactItems: [
    {
      Put: {
        TableName: tableName,
        Item: Object.assign({}, actionLimitKey(record.entityType, record.entityId, record.actionId), record, {
          version: (previousVersion ?? 0) + 1,
        }),
        ...conditionExpression(
          previousVersion === undefined ? attributeAbsent('PK') : equals('version', previousVersion),
        ),
      },
    },
    ...(switchOn ? [actionSwitchItem(tableName, record.entityType, record.entityId, true)] : []),
  ],
});

/** Deletes records only if each is still the record read (same id): all or nothing. */
export const deletePerActionRequest = (tableName: string, limits: readonly PerActionLimit[]): TransactWriteInput => ({
  TransactItems: limits.map((limit) => ({
    Delete: {
      TableName: tableName,
      Key: actionLimitKey(limit.entityType, limit.entityId, limit.actionId),
      ...conditionExpression(equals('id', limit.id)),
    },
  })),
});

const CLEARED_ACTION_COUNTERS = [
  ...ACTION_PERIODS.flatMap((period) => ACTION_METRICS.map((metric) => counterAttribute(period, metric))),
  ...ACTION_METRICS.map((metric) => counterAttribute('daily', metric, 'previous')),
  keyAttribute('daily'),
  keyAttribute('daily', 'previous'),
];

/**
 * Clears the counters of one action on an entity, in the transaction that deletes its limit, so that a limit
 * created again starts from zero; the item keeps which delivery messages it applied, so that one delivered again
 * later cannot count a second time. Without a counter item, a check that none appeared meanwhile.
 */
export const clearActionCountersItem = (tableName: string, limit: PerActionLimit, stored: boolean) => {
  const Key = actionCountersKey(limit.entityType, limit.entityId, limit.actionId);
  return stored
    ? { Update: { TableName: tableName, Key, ...removeAttributes(CLEARED_ACTION_COUNTERS) } }
    : { ConditionCheck: { TableName: tableName, Key, ...conditionExpression(attributeAbsent('PK')) } };
};

/** A transaction's items that delete per-action limits, each only if still the record read, and clear their counters. */
export const deletePerActionItems = (
  tableName: string,
  limits: readonly PerActionLimit[],
  countersStored: (actionId: number) => boolean,
) => [
  ...deletePerActionRequest(tableName, limits).TransactItems,
  ...limits.map((limit) => clearActionCountersItem(tableName, limit, countersStored(limit.actionId))),
];
