import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import {
  actionCaps,
  limitCrossings,
  type CapOnCounter,
  type CounterSnapshot,
  type LimitReached,
} from '../../domain/delivery/limit-reached';
import { ENTITY_TYPES, levelOfType, type EntityType } from '../../domain/levels';
import { METRICS, PERIODS } from '../../domain/limits/metrics';
import { ACTION_COUNTER_PREFIX, COUNTERS_SK } from '../../table/keys';
import { plainItem } from './attribute-values';
import { CAPS_ATTRIBUTE, counterState, RESET_AT_ATTRIBUTE } from './counter-store';
import { ACTION_METRICS, ACTION_PERIODS } from './per-action-store';
import type { Item } from './table-store';

const isCounterSortKey = (sortKey: string): boolean =>
  sortKey === COUNTERS_SK || sortKey.startsWith(ACTION_COUNTER_PREFIX);

/** What the trigger's filter criteria pass (the stack declares the same): a counter item written. */
export const isCounterChange = (record: DynamoDBRecord): boolean =>
  (record.eventName === 'INSERT' || record.eventName === 'MODIFY') &&
  isCounterSortKey(record.dynamodb?.Keys?.SK?.S ?? '');

/** The caps an image says its write was judged against, on the item's own grid. */
const storedCaps = (item: Item, type: EntityType, isAction: boolean): CapOnCounter[] => {
  const stored = (item[CAPS_ATTRIBUTE] ?? {}) as Record<string, unknown>;
  const values = Object.entries(stored).map(([name, value]) => [name, Number(String(value))] as const);
  const known = isAction
    ? actionCaps({ dailyConversionsLimit: 0, totalConversionsLimit: 0 })
    : levelOfType(type).grid.caps.map(({ name, period, metric }) => ({ name, period, metric, value: 0 }));
  return values.flatMap(([name, value]) => {
    const cap = known.find((candidate) => candidate.name === name);
    return cap && Number.isFinite(value) && value > 0 ? [{ ...cap, value }] : [];
  });
};

const snapshotOf = (image: unknown, isAction: boolean) => {
  if (!image) return undefined;
  const item = plainItem(image as Record<string, AttributeValue>);
  const state = isAction ? counterState(item, ACTION_PERIODS, ACTION_METRICS) : counterState(item, PERIODS, METRICS);
  const resetAt = Number(String(item[RESET_AT_ATTRIBUTE]));
  const snapshot: CounterSnapshot = { keys: state.keys, counters: state.counters };
  return { item, snapshot: Number.isFinite(resetAt) ? { ...snapshot, resetAt } : snapshot };
};

/**
 * The LimitReached events of one table stream record: a counter item's write, judged from its old and new images
 * against the caps the write stored with it. Anything else (and a record without images) tells none.
 */
export const limitReachedOf = (record: DynamoDBRecord): LimitReached[] => {
  const sortKey = record.dynamodb?.Keys?.SK?.S ?? '';
  const [type, id] = (record.dynamodb?.Keys?.PK?.S ?? '').split('#');
  if (!isCounterChange(record) || !ENTITY_TYPES.includes(type as EntityType)) return [];
  const isAction = sortKey !== COUNTERS_SK;
  const after = snapshotOf(record.dynamodb?.NewImage, isAction);
  if (!after) return [];
  const caps = storedCaps(after.item, type as EntityType, isAction);
  if (caps.length === 0) return [];
  const target = {
    type: type as EntityType,
    id: Number(id),
    ...(isAction ? { actionId: Number(sortKey.slice(ACTION_COUNTER_PREFIX.length)) } : {}),
  };
  const written = record.dynamodb?.ApproximateCreationDateTime;
  const at = written !== undefined ? new Date(written * 1000) : new Date();
  return limitCrossings(target, caps, snapshotOf(record.dynamodb?.OldImage, isAction)?.snapshot, after.snapshot, at);
};
