import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type DeleteItemInput,
  type DynamoDBClient,
  type PutItemInput,
  type QueryInput,
  type UpdateItemInput,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import {
  plainItem,
  storedItem,
  storedRequest,
  storedTransaction,
  type DeleteInput,
  type Item,
  type PutInput,
  type QueryRequest,
  type StoredItem,
  type TransactWriteInput,
  type TransactItem,
  type UpdateInput,
} from './attribute-values';
import { InvalidRequest, ServiceBusy, WriteConflict } from '../../domain/errors';
import { inParallel } from '../../support/concurrency';
import type { ItemKey } from '../../table/keys';
import { conditionExpression, keyConditionExpression, attributeAbsent, beginsWith } from './expressions';

export type { Item };

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

/** Reasons DynamoDB gives for cancelling a transaction, per item: a lost race, or load. */
const RACE_REASONS = new Set(['ConditionalCheckFailed', 'TransactionConflict']);
const LOAD_REASONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/**
 * A cancelled transaction in the domain's words: a failed condition or a conflicting transaction is a lost race
 * (the optimistic loop re-reads and retries), throttling is load (503); anything else (a validation error, an
 * item collection over its size) stays the SDK's error.
 */
const translateCancellation = (error: TransactionCanceledException): unknown => {
  const reasons = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  if (reasons.some((code) => LOAD_REASONS.has(code))) return new ServiceBusy(error);
  if (reasons.some((code) => RACE_REASONS.has(code)))
    return new WriteConflict(
      undefined,
      reasons.flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : [])),
    );
  return error;
};

/** SDK exceptions in the domain's words: a failed condition or cancelled transaction, throttling. */
const translateStoreError = (error: unknown): unknown => {
  if (error instanceof ConditionalCheckFailedException) return new WriteConflict(error.Item && plainItem(error.Item));
  if (error instanceof TransactionCanceledException) return translateCancellation(error);
  if (error instanceof Error && THROTTLING_ERRORS.has(error.name)) return new ServiceBusy(error);
  if (error instanceof Error && error.name === 'ValidationException') return new InvalidRequest(error.message);
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
    readonly client: DynamoDBClient,
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
      this.client.send(
        new GetItemCommand({ TableName: this.tableName, Key: storedItem(key), ConsistentRead: consistent }),
      ),
    );
    return result.Item && plainItem(result.Item);
  }

  /** Items of the keys that exist, in no particular order; 100 keys a request, several requests at once. */
  async batchGet(keys: readonly ItemKey[]): Promise<Item[]> {
    // most reads are one request: they skip the chunking and the worker pool
    if (keys.length <= BATCH_GET_LIMIT) return keys.length === 0 ? [] : this.batchGetChunk(keys.map(storedItem));
    const perChunk = await inParallel(chunks(keys, BATCH_GET_LIMIT), BATCH_GET_CONCURRENCY, (chunk) =>
      this.batchGetChunk(chunk.map(storedItem)),
    );
    return perChunk.flat();
  }

  private async batchGetChunk(chunk: StoredItem[]): Promise<Item[]> {
    const items: Item[] = [];
    let pending = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > UNPROCESSED_RETRIES) throw new Error('BatchGetItem left keys unprocessed after retries');
      if (attempt > 0) await backoff(attempt);
      const result = await this.guarded(() =>
        this.client.send(
          new BatchGetItemCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }),
        ),
      );
      for (const item of result.Responses?.[this.tableName] ?? []) items.push(plainItem(item));
      pending = result.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
    }
    return items;
  }

  /** Every item of a partition whose sort key starts with `sortKeyPrefix`, following pagination. */
  async queryPartition(partitionKey: string, sortKeyPrefix?: string): Promise<Item[]> {
    return this.query({
      ...keyConditionExpression('PK', partitionKey, sortKeyPrefix ? beginsWith('SK', sortKeyPrefix) : undefined),
      ConsistentRead: true,
    });
  }

  /**
   * The request on this store's table, whatever the object handed in carries (its type leaves `TableName` out, but
   * structural typing lets an object with one through); assigned, not spread first, which Node 20 builds slowly.
   */
  private onTable<Request extends object>(request: Request): Request & { TableName: string } {
    return Object.assign({}, request, { TableName: this.tableName });
  }

  async query(request: QueryRequest): Promise<Item[]> {
    const input = storedRequest<QueryInput>(this.onTable(request));
    const items: Item[] = [];
    let startKey: StoredItem | undefined;
    do {
      const result = await this.guarded(() =>
        this.client.send(new QueryCommand(startKey ? { ...input, ExclusiveStartKey: startKey } : input)),
      );
      for (const item of result.Items ?? []) items.push(plainItem(item));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  /** One page of a query, as DynamoDB answers it (for callers that page themselves). */
  async queryPage(request: QueryRequest): Promise<Item[]> {
    const result = await this.guarded(() =>
      this.client.send(new QueryCommand(storedRequest<QueryInput>(this.onTable(request)))),
    );
    return (result.Items ?? []).map(plainItem);
  }

  async put(request: PutInput): Promise<void> {
    await this.guarded(() => this.client.send(new PutItemCommand(storedRequest<PutItemInput>(this.onTable(request)))));
  }

  /** Puts an item that must not exist yet: a WriteConflict when it does. */
  async insert(item: Item): Promise<void> {
    await this.put({ Item: item, ...conditionExpression(attributeAbsent('PK')) });
  }

  /** The transaction item of `insert`: a put that cancels the transaction when the item exists. */
  insertItem(item: Item): TransactItem {
    return { Put: { TableName: this.tableName, Item: item, ...conditionExpression(attributeAbsent('PK')) } };
  }

  async update(request: UpdateInput): Promise<Item | undefined> {
    const result = await this.guarded(() =>
      this.client.send(new UpdateItemCommand(storedRequest<UpdateItemInput>(this.onTable(request)))),
    );
    return result.Attributes && plainItem(result.Attributes);
  }

  async delete(request: DeleteInput): Promise<Item | undefined> {
    const result = await this.guarded(() =>
      this.client.send(new DeleteItemCommand(storedRequest<DeleteItemInput>(this.onTable(request)))),
    );
    return result.Attributes && plainItem(result.Attributes);
  }

  /**
   * Writes a transaction built elsewhere, all of it or none (the caller names the table in each action, at most
   * 100). A cancellation answers in the domain's words: WriteConflict for a failed condition, ServiceBusy for
   * throttling.
   */
  async transactWrite(input: TransactWriteInput): Promise<void> {
    await this.guarded(() => this.client.send(new TransactWriteItemsCommand(storedTransaction(input))));
  }

  /** Puts and deletes in batches of 25, retrying what DynamoDB leaves unprocessed. Not atomic. */
  async batchWrite(puts: readonly Item[], deletes: readonly ItemKey[] = []): Promise<void> {
    const requests: WriteRequest[] = [
      ...puts.map((item) => ({ PutRequest: { Item: storedItem(item) } })),
      ...deletes.map((key) => ({ DeleteRequest: { Key: storedItem(key) } })),
    ];
    for (const chunk of chunks(requests, BATCH_WRITE_LIMIT)) {
      let pending = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > UNPROCESSED_RETRIES) throw new Error('BatchWriteItem left items unprocessed after retries');
        if (attempt > 0) await backoff(attempt);
        const result = await this.guarded(() =>
          this.client.send(new BatchWriteItemCommand({ RequestItems: { [this.tableName]: pending } })),
        );
        pending = result.UnprocessedItems?.[this.tableName] ?? [];
      }
    }
  }
}
