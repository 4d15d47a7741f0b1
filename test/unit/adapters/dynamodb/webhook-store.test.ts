import { DynamoDBClient, TransactionCanceledException, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import type { TransactItem } from '../../../../shared/adapters/dynamodb/attribute-values';
import { TableStore } from '../../../../shared/adapters/dynamodb/table-store';
import { DynamoDbWebhookStore } from '../../../../shared/adapters/dynamodb/webhook-store';
import { ServiceBusy, WriteConflict } from '../../../../shared/domain/errors';
import type { WebhookSubscription } from '../../../../shared/domain/webhooks/subscription';

const dynamo = mockClient(DynamoDBClient);
const webhooks = new DynamoDbWebhookStore(new TableStore(new DynamoDBClient({ region: 'us-east-1' }), 'table'));
const answer: TransactItem = { Put: { TableName: 'table', Item: { PK: 'IDEMPOTENCY#7#k', SK: 'IDEMPOTENCY' } } };
const subscription: WebhookSubscription = {
  id: 'wh_1',
  userId: 7,
  url: 'https://hooks.example.com/in',
  events: ['limit.reached'],
  entities: [],
  secrets: [{ value: 'whsec_x', createdAt: '2026-11-27T00:00:00.000Z' }],
  status: 'active',
  createdAt: '2026-11-27T00:00:00.000Z',
};
const cancelledAt = (failed: number, items: number) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: Array.from({ length: items }, (_, index) => ({
      Code: index === failed ? 'ConditionalCheckFailed' : 'None',
    })),
  });
const sentItems = () => dynamo.commandCalls(TransactWriteItemsCommand)[0]!.args[0].input.TransactItems ?? [];

afterEach(() => dynamo.reset());

describe('a subscription write with its Idempotency-Key answer alongside', () => {
  it('writes the answer in the same transaction, after the subscription items', async () => {
    dynamo.on(TransactWriteItemsCommand).resolves({});
    await webhooks.create(subscription, { alongside: [answer] });
    expect(sentItems()).toHaveLength(4);
    expect(sentItems()[3]!.Put!.Item!.PK).toEqual({ S: 'IDEMPOTENCY#7#k' });
  });

  it('is refused as the subscription refuses (the cap) when one of its own items fails', async () => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelledAt(2, 4));
    await expect(webhooks.create(subscription, { alongside: [answer] })).rejects.toBeInstanceOf(WriteConflict);
  });

  it('tells the caller to retry when only the answer failed (another invocation took the key over)', async () => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelledAt(3, 4));
    await expect(webhooks.create(subscription, { alongside: [answer] })).rejects.toBeInstanceOf(ServiceBusy);
  });

  it('turns an update into a transaction only when something goes alongside it', async () => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelledAt(1, 2));
    await expect(webhooks.enable(7, 'wh_1', { alongside: [answer] })).rejects.toBeInstanceOf(ServiceBusy);
    dynamo.on(TransactWriteItemsCommand).rejects(cancelledAt(0, 2));
    expect(await webhooks.enable(7, 'wh_1', { alongside: [answer] })).toBe(false);
  });
});
