import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type DeleteCommandInput,
  type PutCommandInput,
  type QueryCommandInput,
  type TransactWriteCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ServiceBusy, WriteConflict } from '../../domain/errors';
import { inParallel } from '../../concurrency';
import type { ItemKey } from '../../table/keys';

export type Item = Record<string, unknown>;

const BATCH_GET_LIMIT = 100;
const BATCH_WRITE_LIMIT = 25;
const UNPROCESSED_RETRIES = 8;

const chunks = <T>(list: readonly T[], size: number): T[][] => {
  const result: T[][] = [];
  for (let start = 0; start < list.length; start += size) result.push(list.slice(start, start + size));
  return result;
};

/** Chunks of one batch read run this many at a time. */
const BATCH_GET_CONCURRENCY = 8;

const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
]);

/** SDK exceptions in the domain's words: a failed condition or cancelled transaction, throttling. */
const translateStoreError = (error: unknown): unknown => {
  if (error instanceof ConditionalCheckFailedException) return new WriteConflict(error.Item);
  if (error instanceof TransactionCanceledException) return new WriteConflict();
  if (error instanceof Error && THROTTLING_ERRORS.has(error.name)) return new ServiceBusy(error);
  return error;
};

const backoff = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));

/**
 * A thin repository over the one table: one method per table operation. Request parameters for anything
 * beyond a plain key are built by pure functions next to the domain that needs them and passed in here.
 */
export class TableStore {
  constructor(
    readonly client: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  /** Every call to DynamoDB goes through here, so that its failures reach callers in the domain's words. */
  private async guarded<Output>(call: () => Promise<Output>): Promise<Output> {
    try {
      return await call();
    } catch (error) {
      throw translateStoreError(error);
    }
  }

  async get(key: ItemKey, consistent = true): Promise<Item | undefined> {
    const result = await this.guarded(() =>
      this.client.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: consistent })),
    );
    return result.Item;
  }

  /** Items of the keys that exist, in no particular order; 100 keys a request, several requests at once. */
  async batchGet(keys: readonly ItemKey[]): Promise<Item[]> {
    const perChunk = await inParallel(chunks(keys, BATCH_GET_LIMIT), BATCH_GET_CONCURRENCY, (chunk) =>
      this.batchGetChunk(chunk),
    );
    return perChunk.flat();
  }

  private async batchGetChunk(chunk: ItemKey[]): Promise<Item[]> {
    const items: Item[] = [];
    let pending: ItemKey[] = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > UNPROCESSED_RETRIES) throw new Error('BatchGetItem left keys unprocessed after retries');
      if (attempt > 0) await backoff(attempt);
      const result = await this.guarded(() =>
        this.client.send(
          new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }),
        ),
      );
      items.push(...(result.Responses?.[this.tableName] ?? []));
      pending = (result.UnprocessedKeys?.[this.tableName]?.Keys as ItemKey[] | undefined) ?? [];
    }
    return items;
  }

  /** Every item of a partition whose sort key starts with `sortKeyPrefix`, following pagination. */
  async queryPartition(partitionKey: string, sortKeyPrefix?: string): Promise<Item[]> {
    return this.query({
      KeyConditionExpression: sortKeyPrefix ? 'PK = :pk AND begins_with(SK, :prefix)' : 'PK = :pk',
      ExpressionAttributeValues: { ':pk': partitionKey, ...(sortKeyPrefix ? { ':prefix': sortKeyPrefix } : {}) },
      ConsistentRead: true,
    });
  }

  async query(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await this.guarded(() =>
        this.client.send(new QueryCommand({ ...input, TableName: this.tableName, ExclusiveStartKey: startKey })),
      );
      items.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  /** One page of a query, as DynamoDB answers it (for callers that page themselves). */
  async queryPage(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
    const result = await this.guarded(() =>
      this.client.send(new QueryCommand({ ...input, TableName: this.tableName })),
    );
    return result.Items ?? [];
  }

  async put(input: Omit<PutCommandInput, 'TableName'>): Promise<void> {
    await this.guarded(() => this.client.send(new PutCommand({ ...input, TableName: this.tableName })));
  }

  async update(input: Omit<UpdateCommandInput, 'TableName'>): Promise<Item | undefined> {
    const result = await this.guarded(() =>
      this.client.send(new UpdateCommand({ ...input, TableName: this.tableName })),
    );
    return result.Attributes;
  }

  async delete(input: Omit<DeleteCommandInput, 'TableName'>): Promise<Item | undefined> {
    const result = await this.guarded(() =>
      this.client.send(new DeleteCommand({ ...input, TableName: this.tableName })),
    );
    return result.Attributes;
  }

  /** Writes a transaction built elsewhere; the caller names the table in each action. */
  async transactWrite(input: TransactWriteCommandInput): Promise<void> {
    await this.guarded(() => this.client.send(new TransactWriteCommand(input)));
  }

  /** Puts and deletes in batches of 25, retrying what DynamoDB leaves unprocessed. Not atomic. */
  async batchWrite(puts: readonly Item[], deletes: readonly ItemKey[] = []): Promise<void> {
    const requests = [
      ...puts.map((Item) => ({ PutRequest: { Item } })),
      ...deletes.map((Key) => ({ DeleteRequest: { Key } })),
    ];
    for (const chunk of chunks(requests, BATCH_WRITE_LIMIT)) {
      let pending: typeof chunk = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > UNPROCESSED_RETRIES) throw new Error('BatchWriteItem left items unprocessed after retries');
        if (attempt > 0) await backoff(attempt);
        const result = await this.guarded(() =>
          this.client.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } })),
        );
        pending = (result.UnprocessedItems?.[this.tableName] as typeof chunk | undefined) ?? [];
      }
    }
  }
}
