import type { Clock } from '../ports/clock';
import { inParallel } from '../concurrency';
import type { EventPublisher } from '../ports/event-publisher';
import { WriteConflict } from '../domain/errors';
import { limitFromItem } from '../adapters/dynamodb/limit-store';
import { describeError, logger } from '../logger';
import { emitMetrics } from '../metrics';
import { perActionFromItem } from '../adapters/dynamodb/per-action-store';
import type { DeadLetterSink } from '../ports/dead-letters';
import { actionLimitKey, actionSwitchKey, entityKey, itemKeyText, limitKey, type ItemKey } from '../table/keys';
import { isDemandType, levelOfType } from '../domain/levels';
import type { Item, TableStore } from '../adapters/dynamodb/table-store';
import { aggregateDelivery, type Ancestry, type AggregatedBatch } from '../domain/delivery/aggregate';
import { parseDeliveryMessage, type DeliveryEvent } from '../domain/delivery/delivery-event';
import { bucketUpdateRequest, actionUpdateRequest, noConversionRequests } from '../adapters/dynamodb/delivery-store';
import { actionCrossing, bucketCrossings, type LimitReached } from '../domain/delivery/limit-reached';

export interface RecorderPorts {
  store: TableStore;
  clock: Clock;
  events: EventPublisher;
  deadLetters: DeadLetterSink;
}

export interface DeliveryMessage {
  messageId: string;
  body: string;
}

export interface RecordingSummary {
  messages: number;
  recordedEvents: number;
  unknownEntityEvents: number;
  deadLettered: { messageId: string; reason: string }[];
  counterWrites: number;
  limitReached: LimitReached[];
}

export interface RecordingResult {
  /** Messages to be delivered again (SQS partial batch response). */
  failedMessageIds: string[];
  summary: RecordingSummary;
}

const WRITE_CONCURRENCY = 16;

const ancestryOf = async (store: TableStore, events: readonly DeliveryEvent[]): Promise<Ancestry> => {
  const bannerIds = [...new Set(events.flatMap((event) => (event.bannerId !== undefined ? [event.bannerId] : [])))];
  const placementIds = [
    ...new Set(events.flatMap((event) => (event.placementId !== undefined ? [event.placementId] : []))),
  ];
  const items = await store.batchGet([
    ...bannerIds.map((id) => entityKey('BANNER', id)),
    ...placementIds.map((id) => entityKey('PLACEMENT', id)),
  ]);
  const banners = new Map<number, { campaignId: number; advertiserId: number }>();
  const placements = new Map<number, { siteId: number }>();
  for (const item of items) {
    if (item.type === 'BANNER')
      banners.set(Number(item.id), { campaignId: Number(item.campaignId), advertiserId: Number(item.advertiserId) });
    if (item.type === 'PLACEMENT') placements.set(Number(item.id), { siteId: Number(item.siteId) });
  }
  return { banners, placements };
};

/** Limits, per-action switches and the per-action limits of the actions in the batch, for every entity touched. */
const capsOf = async (store: TableStore, batch: AggregatedBatch): Promise<Map<string, Item>> => {
  const keys = new Map<string, ItemKey>();
  const add = (key: ItemKey) => keys.set(itemKeyText(key), key);
  for (const bucket of batch.buckets) add(limitKey(bucket.entityType, bucket.entityId));
  for (const action of batch.actions) {
    add(actionLimitKey(action.entityType, action.entityId, action.actionId));
    add(actionSwitchKey(action.entityType, action.entityId));
  }
  const items = await store.batchGet([...keys.values()]);
  return new Map(items.map((item) => [itemKeyText(item as ItemKey), item]));
};

/**
 * The delivery recorder: parses a batch of messages, sends malformed ones to the dead-letter queue at once,
 * aggregates the rest in memory and writes one atomic ADD per (entity, bucket). A write that makes a counter
 * reach its cap publishes one LimitReached. A failed write has the batch's messages delivered again.
 */
export const recordDelivery = async (
  ports: RecorderPorts,
  messages: readonly DeliveryMessage[],
): Promise<RecordingResult> => {
  const { store, clock } = ports;
  const now = clock.now();
  const failedMessageIds: string[] = [];
  const deadLettered: RecordingSummary['deadLettered'] = [];
  const valid: { messageId: string; events: DeliveryEvent[] }[] = [];
  for (const message of messages) {
    const parsed = parseDeliveryMessage(message.body);
    if (parsed.ok) {
      valid.push({ messageId: message.messageId, events: parsed.events });
      continue;
    }
    logger.warn('malformed delivery message sent to the dead-letter queue', {
      messageId: message.messageId,
      reason: parsed.reason,
    });
    try {
      await ports.deadLetters.send(message.body, parsed.reason);
      deadLettered.push({ messageId: message.messageId, reason: parsed.reason });
    } catch (error) {
      logger.error('dead-lettering failed', { messageId: message.messageId, ...describeError(error) });
      failedMessageIds.push(message.messageId);
    }
  }

  const events = valid.flatMap((message) => message.events);
  const summary: RecordingSummary = {
    messages: messages.length,
    recordedEvents: 0,
    unknownEntityEvents: 0,
    deadLettered,
    counterWrites: 0,
    limitReached: [],
  };
  if (events.length === 0) return { failedMessageIds, summary };

  try {
    const batch = aggregateDelivery(events, await ancestryOf(store, events), now);
    const caps = await capsOf(store, batch);
    const crossings: LimitReached[] = [];
    await inParallel(batch.buckets, WRITE_CONCURRENCY, async (bucket) => {
      const after = (await store.update(bucketUpdateRequest(bucket))) ?? {};
      const limit = limitFromItem(caps.get(itemKeyText(limitKey(bucket.entityType, bucket.entityId))));
      crossings.push(...bucketCrossings(bucket, after, limit, levelOfType(bucket.entityType).grid, now));
    });
    await inParallel(batch.actions, WRITE_CONCURRENCY, async (action) => {
      const after = Number((await store.update(actionUpdateRequest(action)))?.conversions ?? 0);
      const limitItem = caps.get(itemKeyText(actionLimitKey(action.entityType, action.entityId, action.actionId)));
      const switchOn =
        !isDemandType(action.entityType) ||
        caps.get(itemKeyText(actionSwitchKey(action.entityType, action.entityId)))?.enabled === true;
      if (limitItem && switchOn) crossings.push(...actionCrossing(action, after, perActionFromItem(limitItem), now));
    });
    await inParallel(batch.noConversion, WRITE_CONCURRENCY, async (update) => {
      const { primary, fallback } = noConversionRequests(update);
      try {
        await store.update(primary);
      } catch (error) {
        if (!(error instanceof WriteConflict) || !fallback) throw error;
        await store.update(fallback);
      }
    });
    if (crossings.length > 0) await ports.events.publishLimitReached(crossings);
    summary.recordedEvents = batch.recordedEvents;
    summary.unknownEntityEvents = batch.unknownEntityEvents;
    summary.counterWrites = batch.buckets.length + batch.actions.length;
    summary.limitReached = crossings;
  } catch (error) {
    logger.error('recording delivery failed; the batch will be delivered again', describeError(error));
    failedMessageIds.push(...valid.map((message) => message.messageId));
  }
  emitMetrics(
    {
      RecordedEvents: summary.recordedEvents,
      UnknownEntityEvents: summary.unknownEntityEvents,
      DeadLetteredMessages: deadLettered.length,
      CounterWrites: summary.counterWrites,
    },
    now,
  );
  return { failedMessageIds, summary };
};
