import { randomUUID } from 'node:crypto';
import { HISTORY_RETENTION_DAYS, type HistoryEntry } from '../../domain/history/limit-history';
import type { EntityType } from '../../domain/levels';
import { entityPK, HISTORY_PREFIX, historyKey } from '../../table/keys';
import type { Item, TableStore } from './table-store';

/** The transaction item that records a change beside the change itself: both are written, or neither. */
export const historyPut = (tableName: string, type: EntityType, id: number, entry: HistoryEntry, now: Date) => ({
  Put: {
    TableName: tableName,
    Item: {
      ...historyKey(type, id, entry.at, randomUUID()),
      ...entry,
      expiresAt: Math.ceil(now.getTime() / 1000) + HISTORY_RETENTION_DAYS * 86_400,
    },
  },
});

const FIELDS = ['at', 'operation', 'by', 'fields', 'ignoredFields', 'limitCounters', 'actionId', 'actionIds'] as const;

const entryOf = (item: Item): HistoryEntry =>
  Object.fromEntries(
    FIELDS.filter((field) => item[field] !== undefined).map((field) => [field, item[field]]),
  ) as unknown as HistoryEntry;

/** A page cursor: the sort key of the last entry shown, opaque to callers. */
export const cursorOf = (sortKey: string): string => Buffer.from(sortKey, 'utf8').toString('base64url');
export const sortKeyOfCursor = (cursor: string): string | undefined => {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  return sortKey.startsWith(HISTORY_PREFIX) && sortKey.length < 200 ? sortKey : undefined;
};

/** A page of an entity's history, newest first, and the cursor of the next page when there is one. */
export const loadHistory = async (
  store: TableStore,
  type: EntityType,
  id: number,
  limit: number,
  before: string | undefined,
): Promise<{ entries: HistoryEntry[]; next?: string }> => {
  const pk = entityPK(type, id);
  const page = await store.queryPage({
    KeyConditionExpression: before
      ? 'PK = :pk AND SK BETWEEN :prefix AND :before'
      : 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': HISTORY_PREFIX, ...(before ? { ':before': before } : {}) },
    ScanIndexForward: false,
    Limit: limit + 1,
    ConsistentRead: true,
  });
  const items = page.filter((item) => item.SK !== before);
  const shown = items.slice(0, limit);
  return {
    entries: shown.map(entryOf),
    ...(items.length > limit ? { next: cursorOf(String(shown.at(-1)!.SK)) } : {}),
  };
};
