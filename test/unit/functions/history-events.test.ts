import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler } from '../../../functions/history-events/handler';
import { EventBridgePublisher } from '../../../shared/adapters/eventbridge/eventbridge-publisher';

const bus = mockClient(EventBridgeClient);
afterEach(() => bus.reset());

const record = (sequence: number, eventName: 'INSERT' | 'MODIFY', sortKey: string): DynamoDBRecord => ({
  eventName,
  dynamodb: {
    SequenceNumber: String(sequence),
    Keys: { PK: { S: 'CAMPAIGN#100' }, SK: { S: sortKey } },
    NewImage: marshall({
      PK: 'CAMPAIGN#100',
      SK: sortKey,
      at: '2026-06-10T12:00:00.000Z',
      operation: 'update',
      by: { userId: 1, username: 'admin', method: 'apiKey' },
      fields: { dailyBudgetLimit: { from: 0.1, to: 9999999999.999 } },
      expiresAt: 1,
    }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
  },
});

const handler = createHandler({ events: new EventBridgePublisher(new EventBridgeClient({}), 'limits-bus') });
const published = () =>
  bus.commandCalls(PutEventsCommand).flatMap((call) => call.args[0].input.Entries!.map((entry) => entry));

describe('history-events', () => {
  it('publishes each new history entry as a LimitChanged event, exact, and nothing else', async () => {
    bus.on(PutEventsCommand).resolves({ FailedEntryCount: 0 });
    const answer = await handler({
      Records: [
        record(1, 'INSERT', 'HISTORY#2026-06-10T12:00:00.000Z#a'),
        record(2, 'MODIFY', 'HISTORY#2026-06-10T12:00:00.000Z#reset-b'),
        record(3, 'INSERT', 'LIMIT'),
      ],
    });
    expect(answer).toEqual({ batchItemFailures: [] });
    const entries = published();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ DetailType: 'LimitChanged', Source: 'delivery-limits' });
    expect(entries[0]!.Detail).toBe(
      '{"entityType":"CAMPAIGN","entityId":100,"changeId":"2026-06-10T12:00:00.000Z#a","change":{"at":"2026-06-10T12:00:00.000Z","operation":"update","by":{"userId":1,"username":"admin","method":"apiKey"},"fields":{"dailyBudgetLimit":{"from":0.1,"to":9999999999.999}}}}',
    );
  });

  it('names the first record of a refused call, so that the stream is retried from there', async () => {
    bus.on(PutEventsCommand).resolvesOnce({ FailedEntryCount: 0 }).resolves({ FailedEntryCount: 1 });
    const records = Array.from({ length: 25 }, (_, index) => record(index + 1, 'INSERT', `HISTORY#t#${index}`));
    expect(await handler({ Records: records })).toEqual({ batchItemFailures: [{ itemIdentifier: '11' }] });
    // the calls after the refused one are not made: the retry carries them
    expect(bus.commandCalls(PutEventsCommand)).toHaveLength(2);
  });
});
