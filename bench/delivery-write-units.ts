import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createRecorder } from '../functions/delivery-recorder/handler';
import type { LocalService } from '../infra/local/local-service';
import { createDynamoDbClient } from '../shared/adapters/dynamodb/dynamodb-client';
import { storedItem } from '../shared/adapters/dynamodb/attribute-values';
import { countersKey } from '../shared/table/keys';
import { BENCH_ADVERTISER } from './bench-service';
import { itemSize, writeUnits } from '../scripts/simulate/item-size';
import { deliveryMessages } from './throughput';
import { probeWriteUnits, summariseWrites, type WriteUnitsSummary } from './write-units';
import { groupId } from '../scripts/simulate/groups';
import { MARKER_PREFIX } from '../shared/adapters/dynamodb/counter-attributes';

const DAY_MS = 86_400_000;

/**
 * The long run: for `LONG_RUN.days` days from tomorrow (ahead of every period the other measures wrote), `groupsPerDay` message groups a day each send one batch of
 * one message of 100 impressions on one of the bench's banners; a group writes for `daysPerGroup` days, then stops
 * for good (`groupsPerDay / daysPerGroup` new groups a day), so the advertiser's item sees its periods roll over
 * and idle groups' markers pass the 15-day horizon.
 */
export const LONG_RUN = { days: 45, groupsPerDay: 10, daysPerGroup: 5 } as const;

export interface LongRunItem {
  /** The advertiser's counter item at the end: its size, its markers and their bytes, a write's units now. */
  bytes: number;
  markers: number;
  markerBytes: number;
  attributeNameBytes: number;
  unitsPerWrite: number;
  /** The last day's writes to it, as billed. */
  lastDay: WriteUnitsSummary;
}

export interface DeliveryWriteUnits {
  /** The standard batch: 10,000 events in 100 messages over 50 banners, as the request-count scenario sends it. */
  batch: WriteUnitsSummary;
  longRun: LongRunItem;
}

/** SQS numbers a FIFO queue's messages with 20-digit sequence numbers: the bench's are as long, so markers are too. */
const FIRST_SEQUENCE = 18_849_496_460_467_696_128n;

const batchOf = (group: string, sentAt: number, first: number, messages: ReturnType<typeof deliveryMessages>) =>
  ({
    Records: messages.map((message, i) => ({
      messageId: message.messageId,
      body: JSON.stringify(message.body),
      attributes: {
        MessageGroupId: group,
        SequenceNumber: String(FIRST_SEQUENCE + BigInt(first + i)),
        SentTimestamp: String(sentAt),
      },
    })),
  }) as never;

const recordOrFail = async (record: ReturnType<typeof createRecorder>, batch: never) => {
  const { response } = await record(batch);
  if (response.batchItemFailures.length > 0) throw new Error('the recorder failed messages');
};

/** One day of the long run: every group active that day sends its batch, at noon. */
const longRunDay = async (service: LocalService, day: number, today: number) => {
  const now = new Date(today + (day + 1) * DAY_MS + DAY_MS / 2);
  const record = createRecorder({ ...service.dependencies, clock: { now: () => now } });
  const starting = LONG_RUN.groupsPerDay / LONG_RUN.daysPerGroup;
  for (let group = (day - LONG_RUN.daysPerGroup + 1) * starting; group < (day + 1) * starting; group++) {
    if (group < 0) continue;
    const message = [
      {
        messageId: `long-${group}-${day}`,
        body: [{ kind: 'impression', bannerId: 200_001 + (group % 50), count: 100, revenue: '0.1' }],
      },
    ];
    await recordOrFail(record, batchOf(groupId(group), now.getTime(), day + 1, message));
  }
};

const advertiserItem = async (service: LocalService) => {
  const { store } = service.dependencies;
  const { Item } = await store.client.send(
    new GetItemCommand({
      TableName: store.tableName,
      Key: storedItem(countersKey('ADVERTISER', BENCH_ADVERTISER)),
      ConsistentRead: true,
    }),
  );
  return Item ?? {};
};

/**
 * Write units of the delivery path as DynamoDB bills them: the standard batch (a message group of its own), then
 * the long run, its last day probed, and the advertiser's counter item it leaves. Run it last: the long run moves
 * the bench's counter items through 45 days of periods.
 */
export const measureDeliveryWriteUnits = async (service: LocalService): Promise<DeliveryWriteUnits> => {
  const probe = createDynamoDbClient({ endpoint: service.dynamoEndpoint });
  try {
    const probed = probeWriteUnits(service.requestTaps, probe);
    const record = createRecorder(service.dependencies);
    const batch = summariseWrites(
      await probed.during(() => recordOrFail(record, batchOf('units', Date.now(), 1, deliveryMessages('units')))),
    );
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    for (let day = 0; day < LONG_RUN.days - 1; day++) await longRunDay(service, day, today);
    const lastDay = summariseWrites(await probed.during(() => longRunDay(service, LONG_RUN.days - 1, today)));
    const item = await advertiserItem(service);
    const markers = Object.entries(item).filter(([name]) => name.startsWith(MARKER_PREFIX));
    const bytes = itemSize(item);
    return {
      batch,
      longRun: {
        bytes,
        markers: markers.length,
        markerBytes: itemSize(Object.fromEntries(markers)),
        attributeNameBytes: Object.keys(item).reduce((sum, name) => sum + Buffer.byteLength(name, 'utf8'), 0),
        unitsPerWrite: writeUnits(bytes, bytes),
        lastDay,
      },
    };
  } finally {
    probe.destroy();
  }
};
