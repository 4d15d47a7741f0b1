import { createRecorder } from '../functions/delivery-recorder/handler';
import type { LocalService } from '../infra/local/local-service';
import { CAPS_ATTRIBUTE } from '../shared/adapters/dynamodb/counter-attributes';
import { storedItem } from '../shared/adapters/dynamodb/attribute-values';
import { countersKey } from '../shared/table/keys';
import { itemSize } from '../scripts/simulate/item-size';
import type { recordRequests } from './request-recorder';
import { writeCost } from './throughput';

/** Banners 200,051–200,100 (one per campaign of the 50 the delivery scenario uses), capped at 200 impressions. */
const FIRST_BANNER = 200_051;
const BANNERS = 50;
const CAPS = { dailyImpressionsLimit: 200, totalImpressionsLimit: 200 };

export interface LimitReachedCost {
  crossings: number;
  counterWrites: number;
  /** DynamoDB requests of the recorder's batch, and of the same batch before, when it crossed nothing. */
  recorderRequests: number;
  baselineRequests: number;
  writeRequests: number;
  /** Calls to the event bus and the events they carried, made by the stream consumer. */
  publishCalls: number;
  publishedEvents: number;
  /** What the stored caps add to a banner's counter item, as DynamoDB sizes an item (bytes). */
  capsBytes: number;
}

/** 50 messages, one per banner, each of 100 impressions, as the queue hands them over after `before` others. */
const batchOf = (before: number) =>
  ({
    Records: Array.from({ length: BANNERS }, (_, i) => ({
      messageId: `crossing-${before + i}`,
      body: JSON.stringify([{ kind: 'impression', bannerId: FIRST_BANNER + i, count: 100 }]),
      attributes: {
        MessageGroupId: 'crossings',
        SequenceNumber: String(before + i + 1),
        SentTimestamp: String(Date.now()),
      },
    })),
  }) as never;

/**
 * The same batch twice: first under the bench's caps of 1,000 (nothing crossed), then, with the caps lowered to 200,
 * taking every banner over its two caps. Counts what the recorder sends each time, and what the table stream's
 * consumer publishes (the local stream drained through `GET /_local/events`, as a tool reads it).
 */
export const measureLimitReached = async (
  service: LocalService,
  recorder: ReturnType<typeof recordRequests>,
): Promise<LimitReachedCost> => {
  const { store } = service.dependencies;
  const record = createRecorder(service.dependencies);
  const baseline = await recorder.during(() => record(batchOf(0)));
  await store.batchWrite(
    Array.from({ length: BANNERS }, (_, i) => ({
      PK: `BANNER#${FIRST_BANNER + i}`,
      SK: 'LIMIT',
      id: 2_000_000 + i,
      entityType: 'BANNER',
      entityId: FIRST_BANNER + i,
      caps: CAPS,
      evenPacing: false,
      useLocalTime: false,
      timezoneOffset: 0,
      version: 1,
    })),
  );
  const events = service.events;
  const publish = events.publishLimitReached.bind(events);
  let publishCalls = 0;
  let publishedEvents = 0;
  events.publishLimitReached = async (batchOfEvents) => {
    publishCalls++;
    publishedEvents += batchOfEvents.length;
    await publish(batchOfEvents);
  };
  let counterWrites = 0;
  try {
    const sent = await recorder.during(async () => {
      const { response, summary } = await record(batchOf(BANNERS));
      if (response.batchItemFailures.length > 0) throw new Error('the recorder failed messages');
      counterWrites = summary.counterWrites;
    });
    await (await fetch(`${service.url}/_local/events`)).arrayBuffer();
    const crossings = events.published.filter(
      (event) => event.entityType === 'BANNER' && event.entityId >= FIRST_BANNER,
    ).length;
    const item = await store.get(countersKey('BANNER', FIRST_BANNER));
    return {
      crossings,
      counterWrites,
      recorderRequests: sent.length,
      baselineRequests: baseline.length,
      writeRequests: writeCost(sent).requests,
      publishCalls,
      publishedEvents,
      capsBytes: itemSize(storedItem({ [CAPS_ATTRIBUTE]: item?.[CAPS_ATTRIBUTE] ?? {} })),
    };
  } finally {
    events.publishLimitReached = publish;
  }
};
