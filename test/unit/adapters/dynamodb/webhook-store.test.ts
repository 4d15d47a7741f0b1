import {
  DynamoDBClient,
  GetItemCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
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
  activeSince: '2026-11-27T00:00:00.000Z',
  version: 2,
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
  it('writes the answer in the same transaction, after the subscription and its routes', async () => {
    dynamo.on(TransactWriteItemsCommand).resolves({});
    await webhooks.create(subscription, { alongside: [answer] });
    expect(sentItems()).toHaveLength(3);
    expect(sentItems()[2]!.Put!.Item!.PK).toEqual({ S: 'IDEMPOTENCY#7#k' });
  });

  it('is refused as the subscription refuses (the cap) when one of its own items fails', async () => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelledAt(1, 3));
    await expect(webhooks.create(subscription, { alongside: [answer] })).rejects.toBeInstanceOf(WriteConflict);
  });

  it('tells the caller to retry when only the answer failed (another invocation took the key over)', async () => {
    dynamo.on(TransactWriteItemsCommand).rejects(cancelledAt(2, 3));
    await expect(webhooks.create(subscription, { alongside: [answer] })).rejects.toBeInstanceOf(ServiceBusy);
  });

  it("tells an owner's change apart: another change came first, the subscription is gone, or only the answer failed", async () => {
    const rotated = { ...subscription, secrets: [] };
    dynamo.on(TransactWriteItemsCommand).rejects(cancelledAt(1, 2));
    await expect(webhooks.change(subscription, rotated, { alongside: [answer] })).rejects.toBeInstanceOf(ServiceBusy);
    dynamo.on(TransactWriteItemsCommand).rejects(cancelledAt(0, 2));
    dynamo.on(GetItemCommand).resolves({ Item: { PK: { S: 'WEBHOOKS#7' }, SK: { S: 'WEBHOOK#wh_1' } } });
    await expect(webhooks.change(subscription, rotated, { alongside: [answer] })).rejects.toBeInstanceOf(WriteConflict);
    dynamo.on(GetItemCommand).resolves({});
    expect(await webhooks.change(subscription, rotated, { alongside: [answer] })).toBe(false);
  });
});
