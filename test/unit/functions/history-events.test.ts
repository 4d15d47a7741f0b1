import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHandler } from '../../../functions/history-events/handler';
import { EventBridgePublisher } from '../../../shared/adapters/eventbridge/eventbridge-publisher';
import { TableStore } from '../../../shared/adapters/dynamodb/table-store';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  CAPS_ATTRIBUTE,
  counterAttribute,
  keyAttribute,
  markerAttribute,
} from '../../../shared/adapters/dynamodb/counter-attributes';
import { markerBytes } from '../../../shared/adapters/dynamodb/marker-bytes';
import { sequenceText } from '../../../shared/domain/delivery/counter-plan';
import { groupMarkerKey } from '../../../shared/table/keys';

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

const rejected: { body: string; reason: string }[] = [];
afterEach(() => rejected.splice(0));

// no record here is a sharded entity's counter write: the table is never read
const handler = createHandler({
  events: new EventBridgePublisher(new EventBridgeClient({}), 'limits-bus'),
  store: new TableStore(new DynamoDBClient({}), 'not-read'),
  deadLetters: { send: async (body, reason) => void rejected.push({ body, reason }) },
});
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

type Image = NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];

/** The counters the caps these records store cap, as a counter item stores a cap: under its counter's attribute. */
const CAPPED = {
  dailyClicksLimit: counterAttribute('daily', 'clicks'),
  dailyConversionsLimit: counterAttribute('daily', 'conversions'),
};

/** A write of CAMPAIGN#100's counter item: today's clicks from `before` to `after`, judged against `caps`. */
const counterRecord = (
  sequence: number,
  before: number | undefined,
  after: number,
  caps: Partial<Record<keyof typeof CAPPED, number>> | undefined,
  sortKey = 'COUNTERS',
): DynamoDBRecord => {
  const image = (clicks: number) =>
    marshall({
      PK: 'CAMPAIGN#100',
      SK: sortKey,
      [keyAttribute('daily')]: 'D#2026-11-22',
      [counterAttribute('daily', 'clicks')]: clicks,
      [counterAttribute('daily', 'conversions')]: clicks,
      [counterAttribute('total', 'conversions')]: clicks,
      [markerAttribute('g')]: markerBytes(sequenceText(sequence)),
      ...(caps
        ? {
            [CAPS_ATTRIBUTE]: Object.fromEntries(
              Object.entries(caps).map(([name, value]) => [CAPPED[name as keyof typeof CAPPED], value]),
            ),
          }
        : {}),
    }) as Image;
  return {
    eventName: before === undefined ? 'INSERT' : 'MODIFY',
    dynamodb: {
      SequenceNumber: String(sequence),
      ApproximateCreationDateTime: Date.parse('2026-11-22T12:00:00Z') / 1000,
      Keys: { PK: { S: 'CAMPAIGN#100' }, SK: { S: sortKey } },
      ...(before !== undefined ? { OldImage: image(before) } : {}),
      NewImage: image(after),
    },
  };
};

describe('history-events, records it cannot decode or judge', () => {
  it('dead-letters them at once with their reason, and publishes the records around them', async () => {
    bus.on(PutEventsCommand).resolves({ FailedEntryCount: 0 });
    const unknownShape = record(2, 'INSERT', 'HISTORY#t#2');
    unknownShape.dynamodb!.NewImage!.fields = {} as never;
    const notAnEntity = record(3, 'INSERT', 'HISTORY#t#3');
    notAnEntity.dynamodb!.Keys!.PK = { S: 'USER#1' };
    const answer = await handler({
      Records: [record(1, 'INSERT', 'HISTORY#t#1'), unknownShape, notAnEntity, record(4, 'INSERT', 'HISTORY#t#4')],
    });
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(published().map((entry) => JSON.parse(entry.Detail!).changeId)).toEqual(['t#1', 't#4']);
    expect(rejected.map(({ reason }) => reason)).toEqual([
      'UndecodableRecord: fields: an attribute value with 0 members (one expected)',
      'UndecodableRecord: an item of a kind the consumer does not know: PK "USER#1"',
    ]);
    expect(JSON.parse(rejected[0]!.body).dynamodb.SequenceNumber).toBe('2');
  });

  it('hands a dead letter that could not be sent back to the stream from its record', async () => {
    const failing = createHandler({
      events: new EventBridgePublisher(new EventBridgeClient({}), 'limits-bus'),
      store: new TableStore(new DynamoDBClient({}), 'not-read'),
      deadLetters: { send: async () => Promise.reject(new Error('SQS is down')) },
    });
    bus.on(PutEventsCommand).resolves({ FailedEntryCount: 0 });
    const broken = record(2, 'INSERT', 'HISTORY#t#2');
    broken.dynamodb!.NewImage!.at = { X: 'what' } as never;
    const answer = await failing({
      Records: [record(1, 'INSERT', 'HISTORY#t#1'), broken, record(3, 'INSERT', 'HISTORY#t#3')],
    });
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
    expect(published().map((entry) => JSON.parse(entry.Detail!).changeId)).toEqual(['t#1']);
  });
});

describe('history-events, message-group markers kept beside a counter item', () => {
  it('tells nothing of them and dead-letters none, written or expired by TTL', async () => {
    bus.on(PutEventsCommand).resolves({ FailedEntryCount: 0 });
    const key = groupMarkerKey({ PK: 'CAMPAIGN#100', SK: 'COUNTERS' }, 'g'.repeat(128));
    const image = marshall({ ...key, m: markerBytes(sequenceText(7)), expiresAt: 1 }) as Image;
    const marker = (sequence: number, eventName: 'INSERT' | 'MODIFY' | 'REMOVE'): DynamoDBRecord => ({
      eventName,
      ...(eventName === 'REMOVE' ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
      dynamodb: {
        SequenceNumber: String(sequence),
        Keys: { PK: { S: key.PK }, SK: { S: key.SK } },
        ...(eventName !== 'INSERT' ? { OldImage: image } : {}),
        ...(eventName !== 'REMOVE' ? { NewImage: image } : {}),
      },
    });
    const answer = await handler({
      Records: [marker(1, 'INSERT'), marker(2, 'MODIFY'), record(3, 'INSERT', 'HISTORY#t#3'), marker(4, 'REMOVE')],
    });
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(published().map((entry) => JSON.parse(entry.Detail!).changeId)).toEqual(['t#3']);
    expect(rejected).toEqual([]);
  });
});

describe('history-events, LimitReached', () => {
  it('publishes a counter write that reaches a cap it stored, with its id, in stream order with LimitChanged', async () => {
    bus.on(PutEventsCommand).resolves({ FailedEntryCount: 0 });
    const answer = await handler({
      Records: [
        counterRecord(1, 5, 9, { dailyClicksLimit: 10 }),
        counterRecord(2, 9, 10, { dailyClicksLimit: 10 }),
        record(3, 'INSERT', 'HISTORY#2026-06-10T12:00:00.000Z#a'),
        counterRecord(4, 10, 12, { dailyClicksLimit: 10 }),
        counterRecord(5, 0, 20, undefined),
        counterRecord(6, 2, 3, { dailyConversionsLimit: 3 }, 'ACTCTR#7'),
      ],
    });
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(published().map((entry) => [entry.DetailType, JSON.parse(entry.Detail!).id ?? 'change'])).toEqual([
      ['LimitReached', 'CAMPAIGN#100/dailyClicksLimit=10/D#2026-11-22'],
      ['LimitChanged', 'change'],
      ['LimitReached', 'CAMPAIGN#100/ACTION#7/dailyConversionsLimit=3/D#2026-11-22'],
    ]);
    expect(JSON.parse(published()[0]!.Detail!)).toEqual({
      id: 'CAMPAIGN#100/dailyClicksLimit=10/D#2026-11-22',
      entity: 'CAMPAIGN#100',
      entityType: 'CAMPAIGN',
      entityId: 100,
      cap: 'dailyClicksLimit',
      capValue: 10,
      counter: 10,
      bucket: 'D#2026-11-22',
      at: '2026-11-22T12:00:00.000Z',
    });
  });

  it('hands a record whose LimitReached call failed back to the stream, and counts the failure in a metric', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'history-events');
    vi.stubEnv('LOG_LEVEL', 'error');
    let written = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      written += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      bus.on(PutEventsCommand).rejects(new Error('EventBridge is down'));
      const records = [
        counterRecord(1, 0, 3, { dailyClicksLimit: 10 }),
        counterRecord(2, 3, 10, { dailyClicksLimit: 10 }),
      ];
      expect(await handler({ Records: records })).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
      const metric = written
        .split('\n')
        .filter((line) => line.includes('LimitReachedPublishFailures'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(metric).toEqual([expect.objectContaining({ LimitReachedPublishFailures: 1, service: 'delivery-limits' })]);
      // handed over again once EventBridge takes it, the same event under the same id
      bus.reset();
      bus.on(PutEventsCommand).resolves({ FailedEntryCount: 0 });
      expect(await handler({ Records: records.slice(1) })).toEqual({ batchItemFailures: [] });
      expect(published().map((entry) => JSON.parse(entry.Detail!).id)).toEqual([
        'CAMPAIGN#100/dailyClicksLimit=10/D#2026-11-22',
      ]);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
    }
  });
});
