import {
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { TableStore } from '../../../../shared/adapters/dynamodb/table-store';
import { ServiceBusy, WriteConflict } from '../../../../shared/domain/errors';

const dynamo = mockClient(DynamoDBClient);
const store = new TableStore(new DynamoDBClient({ region: 'us-east-1' }), 'table');
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const write = () =>
  store.transactWrite({ TransactItems: [{ Put: { TableName: 'table', Item: { PK: 'A', SK: 'B' } } }] });

afterEach(() => dynamo.reset());

describe('a cancelled transaction', () => {
  it.each([
    [['ConditionalCheckFailed', 'None'], WriteConflict],
    [['None', 'TransactionConflict'], WriteConflict],
    [['None', 'ThrottlingError'], ServiceBusy],
    [['ConditionalCheckFailed', 'ProvisionedThroughputExceeded'], ServiceBusy],
  ] as const)('with reasons %j is the domain error the write loop expects', async (codes, expected) => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelled(...codes));
    await expect(write()).rejects.toBeInstanceOf(expected);
  });

  it('names the items whose condition failed', async () => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelled('None', 'ConditionalCheckFailed', 'ConditionalCheckFailed'));
    await expect(write()).rejects.toMatchObject({ failedItems: [1, 2] });
  });

  it('for any other reason stays the SDK error (a fault, not a race or load)', async () => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelled('ValidationError', 'None'));
    await expect(write()).rejects.toBeInstanceOf(TransactionCanceledException);
  });
});

describe('a request handed to the store', () => {
  it("goes to the store's own table, even when the object carries another table's name", async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });
    dynamo.on(PutItemCommand).resolves({});
    dynamo.on(UpdateItemCommand).resolves({});
    dynamo.on(DeleteItemCommand).resolves({});
    const key = { PK: 'A', SK: 'B' };
    const elsewhere = { TableName: 'another-table' };
    await store.query(
      Object.assign({ KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': 'A' } }, elsewhere),
    );
    await store.queryPage(
      Object.assign({ KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': 'A' } }, elsewhere),
    );
    await store.put(Object.assign({ Item: key }, elsewhere));
    await store.update(
      Object.assign({ Key: key, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } }, elsewhere),
    );
    await store.delete(Object.assign({ Key: key }, elsewhere));
    const tables = dynamo.calls().map((call) => (call.args[0].input as { TableName?: string }).TableName);
    expect(tables).toEqual(['table', 'table', 'table', 'table', 'table']);
  });
});
