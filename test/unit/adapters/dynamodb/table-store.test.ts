import { DynamoDBClient, TransactionCanceledException, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
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
