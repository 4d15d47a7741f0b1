import { isDeepStrictEqual } from 'node:util';
import { BatchWriteItemCommand, QueryCommand, type AttributeValue, type WriteRequest } from '@aws-sdk/client-dynamodb';
import type { LocalService } from '../infra/local/local-service';

type StoredItem = Record<string, AttributeValue>;
type Table = LocalService['dependencies']['store'];

const keyOf = (item: StoredItem) => JSON.stringify([item.PK, item.SK]);

/** Every item of one partition as stored, read strongly consistent. */
const partitionItems = async ({ client, tableName }: Table, partitionKey: string): Promise<StoredItem[]> => {
  const items: StoredItem[] = [];
  let startKey: StoredItem | undefined;
  do {
    const page = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': { S: partitionKey } },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
};

const writeAll = async ({ client, tableName }: Table, requests: WriteRequest[]) => {
  for (let from = 0; from < requests.length; from += 25) {
    let pending = requests.slice(from, from + 25);
    while (pending.length > 0) {
      const result = await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: pending } }));
      pending = result.UnprocessedItems?.[tableName] ?? [];
    }
  }
};

/** The writes that bring the items now stored back to the snapshot: only what differs, as DynamoDB would skip the rest. */
const writesBack = (snapshot: StoredItem[], current: StoredItem[]): WriteRequest[] => {
  const now = new Map(current.map((item) => [keyOf(item), item]));
  const kept = new Set(snapshot.map(keyOf));
  return [
    ...current
      .filter((item) => !kept.has(keyOf(item)))
      .map((item) => ({ DeleteRequest: { Key: { PK: item.PK!, SK: item.SK! } } })),
    ...snapshot
      .filter((item) => !isDeepStrictEqual(item, now.get(keyOf(item))))
      .map((item) => ({ PutRequest: { Item: item } })),
  ];
};

/**
 * A `restore` for an operation that writes the given partitions: its first call, after `prepare`, takes a snapshot
 * of every item in them; every later call deletes what was added since and puts back what changed, so that each
 * measured call, the raw replay's included, starts from the same items and commits as the handler's call did.
 */
export const restorePartitions = (...partitionKeys: string[]) => {
  const snapshots = new WeakMap<LocalService, StoredItem[]>();
  return async (service: LocalService): Promise<void> => {
    const table = service.dependencies.store;
    const current = (await Promise.all(partitionKeys.map((key) => partitionItems(table, key)))).flat();
    const snapshot = snapshots.get(service);
    if (snapshot) await writeAll(table, writesBack(snapshot, current));
    else snapshots.set(service, current);
  };
};
