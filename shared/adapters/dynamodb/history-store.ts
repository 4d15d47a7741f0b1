import { HISTORY_RETENTION_DAYS, type HistoryEntry } from '../../domain/history/limit-history';
import type { EntityType } from '../../domain/levels';
import {
  entityPK,
  HISTORY_PREFIX,
  historyHeadKey,
  historyKey,
  VERSIONED_HISTORY_PREFIX,
  type ItemKey,
} from '../../table/keys';
import type { TransactItem } from './attribute-values';
import type { Item, TableStore } from './table-store';
import {
  conditionExpression,
  keyConditionExpression,
  attributeAbsent,
  beginsWith,
  between,
  equals,
  UpdateBuilder,
} from './expressions';

/** The version of an entity's newest history entry, from its head item (0: none yet, or only entries keyed by time). */
export const historyVersionOf = (head: Item | undefined): number => Number(head?.version ?? 0);

export const loadHistoryVersion = async (store: TableStore, type: EntityType, id: number): Promise<number> =>
  historyVersionOf(await store.get(historyHeadKey(type, id)));

/**
 * The transaction items that record a change beside the change itself: the entity's history version goes from the
 * one read to the next, on condition that it is still the one read, and the entry is keyed by the new version. Two
 * changes of one entity can therefore never commit on the same version: history lists them in commit order.
 */
export const historyWrites = (
  tableName: string,
  { type, id }: { type: EntityType; id: number },
  entry: HistoryEntry,
  { now, versionRead }: { now: Date; versionRead: number },
): TransactItem[] => {
  const version = versionRead + 1;
  return [
    {
      Update: {
        TableName: tableName,
        Key: historyHeadKey(type, id),
        ...new UpdateBuilder()
          .set('version', version)
          .require(versionRead === 0 ? attributeAbsent('version') : equals('version', versionRead))
          .build(),
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: Object.assign<Item, ItemKey, HistoryEntry, Item>({}, historyKey(type, id, version), entry, {
          version,
          expiresAt: Math.ceil(now.getTime() / 1000) + HISTORY_RETENTION_DAYS * 86_400,
        }),
        ...conditionExpression(attributeAbsent('PK')),
      },
    },
  ];
};

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

/** The sort keys a cursor may name: an entry's by version, or one keyed by time and a random id (before versions). */
const ENTRY_SORT_KEY = new RegExp(
  `^(?:${VERSIONED_HISTORY_PREFIX}\\d{12}|${HISTORY_PREFIX}\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z#[A-Za-z0-9_-]{1,64})$`,
);

/** A page cursor: the sort key of the last entry shown, opaque to callers. */
export const cursorOf = (sortKey: string): string => Buffer.from(sortKey, 'utf8').toString('base64url');

/** The sort key of a cursor the service issued; undefined for anything else (parsed strictly, re-encoded the same). */
export const sortKeyOfCursor = (cursor: string): string | undefined => {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  return ENTRY_SORT_KEY.test(sortKey) && cursorOf(sortKey) === cursor ? sortKey : undefined;
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
  { type, id }: { type: EntityType; id: number },
  { limit, before }: { limit: number; before: string | undefined },
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
  ScanIndexForward: false,
  ...keyConditionExpression(
    'PK',
    pk,
    before ? between('SK', HISTORY_PREFIX, before) : beginsWith('SK', HISTORY_PREFIX),
  ),
  ...(before ? { ExclusiveStartKey: { PK: pk, SK: before } } : {}),
  Limit: limit,
  ConsistentRead: true,
});
