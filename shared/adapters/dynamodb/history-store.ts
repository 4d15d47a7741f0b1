import { randomUUID } from 'node:crypto';
import { HISTORY_RETENTION_DAYS, type HistoryEntry } from '../../domain/history/limit-history';
import type { EntityType } from '../../domain/levels';
import { entityPK, HISTORY_PREFIX, historyKey } from '../../table/keys';
import type { Item, TableStore } from './table-store';

/**
 * The transaction item that records a change beside the change itself: both are written, or neither. `unique`
 * tells entries of the same instant apart; one that is the same for the same change makes recording it again
 * overwrite the entry instead of adding a second.
 */
export const historyPut = (
  tableName: string,
  type: EntityType,
  id: number,
  entry: HistoryEntry,
  now: Date,
  unique: string = randomUUID(),
) => ({
  Put: {
    TableName: tableName,
    Item: {
      ...historyKey(type, id, entry.at, unique),
      ...entry,
      expiresAt: Math.ceil(now.getTime() / 1000) + HISTORY_RETENTION_DAYS * 86_400,
    },
  },
});

const FIELDS = [
  'at',
  'operation',
  'by',
  'fields',
  'ignoredFields',
  'limitCounters',
  'actionId',
  'actionIds',
  'appliedAt',
] as const;

export const entryOf = (item: Item): HistoryEntry =>
  Object.fromEntries(
    FIELDS.filter((field) => item[field] !== undefined).map((field) => [field, item[field]]),
  ) as unknown as HistoryEntry;

/** A page cursor: the sort key of the last entry shown, opaque to callers. */
export const cursorOf = (sortKey: string): string => Buffer.from(sortKey, 'utf8').toString('base64url');
export const sortKeyOfCursor = (cursor: string): string | undefined => {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  return sortKey.startsWith(HISTORY_PREFIX) && sortKey.length < 200 ? sortKey : undefined;
};

/** Stored entries read per query while filling a page: enough that hidden entries rarely cost a second query. */
const QUERY_PAGE = 100;
/** A page stops after this many queries, shorter than asked, with a cursor: a call's cost stays bounded. */
const MAX_QUERIES = 5;

/**
 * A page of what the caller may see of an entity's history, newest first, and the cursor of the next page when
 * older entries remain. `shown` turns a stored entry into what the caller may see, or drops it.
 */
export const loadHistory = async (
  store: TableStore,
  type: EntityType,
  id: number,
  limit: number,
  before: string | undefined,
  shown: (entry: HistoryEntry) => HistoryEntry | undefined,
): Promise<{ entries: HistoryEntry[]; next?: string }> => {
  const pk = entityPK(type, id);
  const entries: HistoryEntry[] = [];
  let from = before;
  for (let query = 1; ; query++) {
    const items = await store.queryPage(historyPageQuery(pk, from, QUERY_PAGE));
    for (const [index, item] of items.entries()) {
      const entry = shown(entryOf(item));
      if (entry === undefined) continue;
      if (entries.length === limit) return { entries, next: cursorOf(String(items[index - 1]?.SK ?? from)) };
      entries.push(entry);
    }
    if (items.length < QUERY_PAGE) return { entries };
    from = String(items.at(-1)!.SK);
    if (query === MAX_QUERIES) return { entries, next: cursorOf(from) };
  }
};

/** The query of one page of stored entries older than the `before` sort key (all of them without one). */
export const historyPageQuery = (pk: string, before: string | undefined, limit: number) => ({
  KeyConditionExpression: before
    ? 'PK = :pk AND SK BETWEEN :prefix AND :before'
    : 'PK = :pk AND begins_with(SK, :prefix)',
  ExpressionAttributeValues: { ':pk': pk, ':prefix': HISTORY_PREFIX, ...(before ? { ':before': before } : {}) },
  ...(before ? { ExclusiveStartKey: { PK: pk, SK: before } } : {}),
  ScanIndexForward: false,
  Limit: limit,
  ConsistentRead: true,
});
