import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import {
  limitReachedOf,
  limitReachedOnSum,
  markReachedTold,
  shardedEntityOf,
} from '../../shared/adapters/dynamodb/counter-stream';
import type { TableStore } from '../../shared/adapters/dynamodb/table-store';
import { limitChangedOf } from '../../shared/adapters/dynamodb/history-stream';
import type { LimitReached } from '../../shared/domain/delivery/limit-reached';
import type { LimitChanged } from '../../shared/domain/history/limit-changed';
import { describeError, logger } from '../../shared/observability/logger';
import { emitMetrics } from '../../shared/observability/metrics';
import { eventsFromEnvironment, storeFromEnvironment, type Ports } from '../../shared/runtime/dependencies';

/** EventBridge takes 10 entries per call. */
const EVENTS_PER_CALL = 10;

type Outgoing =
  | { kind: 'LimitChanged'; event: LimitChanged; sequence: string }
  | { kind: 'LimitReached'; event: LimitReached; sequence: string; onSum?: boolean };

/** The events of a batch in stream order: consecutive ones of a kind in calls of at most 10. */
const callsOf = (outgoing: readonly Outgoing[]): Outgoing[][] => {
  const calls: Outgoing[][] = [];
  for (const item of outgoing) {
    const last = calls.at(-1);
    if (last && last[0]!.kind === item.kind && last.length < EVENTS_PER_CALL) last.push(item);
    else calls.push([item]);
  }
  return calls;
};

/**
 * The batch's events in stream order: a history entry's LimitChanged, an unsharded counter write's LimitReached, and
 * a sharded entity's LimitReached on the sum, judged once for all its records (at the place of its last one).
 */
const outgoingOf = async (store: TableStore, records: readonly DynamoDBRecord[]): Promise<Outgoing[]> => {
  const sharded = new Map<string, DynamoDBRecord[]>();
  for (const record of records) {
    const entity = shardedEntityOf(record);
    if (entity === undefined) continue;
    const ofEntity = sharded.get(entity) ?? [];
    ofEntity.push(record);
    sharded.set(entity, ofEntity);
  }
  const outgoing: Outgoing[] = [];
  for (const record of records) {
    const sequence = record.dynamodb?.SequenceNumber ?? '';
    const change = limitChangedOf(record);
    if (change) outgoing.push({ kind: 'LimitChanged', event: change, sequence });
    for (const event of limitReachedOf(record)) outgoing.push({ kind: 'LimitReached', event, sequence });
    const entity = shardedEntityOf(record);
    const ofEntity = entity !== undefined ? sharded.get(entity)! : [];
    if (ofEntity.at(-1) !== record) continue;
    // a failed call is retried from the entity's first record, so that the retry judges all its writes again
    const first = ofEntity[0]!.dynamodb?.SequenceNumber ?? sequence;
    for (const event of await limitReachedOnSum(store, ofEntity))
      outgoing.push({ kind: 'LimitReached', event, sequence: first, onSum: true });
  }
  return outgoing;
};

const publish = async ({ events, store }: Ports<'events' | 'store'>, call: readonly Outgoing[]) => {
  if (call[0]!.kind === 'LimitChanged')
    return events.publishLimitChanged(call.map((item) => item.event as LimitChanged));
  await events.publishLimitReached(call.map((item) => item.event as LimitReached));
  const onSum = call.flatMap((item) => (item.kind === 'LimitReached' && item.onSum ? [item.event] : []));
  if (onSum.length > 0) await markReachedTold(store, onSum, new Date());
};

/**
 * The table stream's consumer: every new history entry becomes a LimitChanged event, and every counter write that
 * made a counter reach a cap it stored becomes a LimitReached event (for a sharded entity: the sum of its shards,
 * read then), in stream order. When a call fails, the answer names the first record it carried: Lambda retries the
 * stream from there, so each event is published at least once (consumers drop repeats by `changeId` and `id`). A
 * failed LimitReached call is counted in the metric `LimitReachedPublishFailures`.
 */
export const createHandler =
  (ports: Ports<'events' | 'store'>) =>
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    let outgoing: Outgoing[];
    try {
      outgoing = await outgoingOf(ports.store, event.Records);
    } catch (error) {
      logger.error('reading the shards of counter writes failed; the stream retries the batch', describeError(error));
      return { batchItemFailures: [{ itemIdentifier: event.Records[0]?.dynamodb?.SequenceNumber ?? '' }] };
    }
    return published(ports, outgoing);
  };

/** The earliest of stream sequence numbers (decimal text of any length). */
const earliest = (sequences: readonly string[]): string =>
  sequences.reduce((low, sequence) =>
    sequence.length < low.length || (sequence.length === low.length && sequence < low) ? sequence : low,
  );

/** Publishes in calls of one kind; on a failure the stream is retried from the call's earliest record. */
const published = async (
  ports: Ports<'events' | 'store'>,
  outgoing: readonly Outgoing[],
): Promise<DynamoDBBatchResponse> => {
  for (const call of callsOf(outgoing)) {
    const kind = call[0]!.kind;
    try {
      await publish(ports, call);
    } catch (error) {
      logger.error(`publishing ${kind} events failed; the stream retries from the first`, describeError(error));
      if (kind === 'LimitReached') emitMetrics({ LimitReachedPublishFailures: call.length }, new Date());
      return { batchItemFailures: [{ itemIdentifier: earliest(call.map((item) => item.sequence)) }] };
    }
  }
  return { batchItemFailures: [] };
};

export const handler = createHandler({ events: eventsFromEnvironment(), store: storeFromEnvironment() });
