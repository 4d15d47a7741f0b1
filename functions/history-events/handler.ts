import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { limitReachedOf, limitReachedOnSum, markReachedTold } from '../../shared/adapters/dynamodb/counter-stream';
import type { TableStore } from '../../shared/adapters/dynamodb/table-store';
import { limitChangedOf } from '../../shared/adapters/dynamodb/history-stream';
import type { LimitReached } from '../../shared/domain/delivery/limit-reached';
import type { LimitChanged } from '../../shared/domain/history/limit-changed';
import { describeError, logger } from '../../shared/logger';
import { emitMetrics } from '../../shared/metrics';
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

/** A record's events: a history entry's LimitChanged, or a counter write's LimitReached (on the sum if sharded). */
const outgoingOf = async (store: TableStore, record: DynamoDBRecord): Promise<Outgoing[]> => {
  const sequence = record.dynamodb?.SequenceNumber ?? '';
  const change = limitChangedOf(record);
  if (change) return [{ kind: 'LimitChanged', event: change, sequence }];
  const onSum = (await limitReachedOnSum(store, record)).map((event): Outgoing => ({
    kind: 'LimitReached',
    event,
    sequence,
    onSum: true,
  }));
  return [...limitReachedOf(record).map((event): Outgoing => ({ kind: 'LimitReached', event, sequence })), ...onSum];
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
    const outgoing: Outgoing[] = [];
    for (const record of event.Records) {
      try {
        outgoing.push(...(await outgoingOf(ports.store, record)));
      } catch (error) {
        logger.error('reading the shards of a counter write failed; the stream retries from it', describeError(error));
        return await published(ports, outgoing, record.dynamodb?.SequenceNumber ?? '');
      }
    }
    return published(ports, outgoing);
  };

/** Publishes in calls of one kind; on a failure (or at `stopAt`) the stream is retried from there. */
const published = async (
  ports: Ports<'events' | 'store'>,
  outgoing: readonly Outgoing[],
  stopAt?: string,
): Promise<DynamoDBBatchResponse> => {
  for (const call of callsOf(outgoing)) {
    const kind = call[0]!.kind;
    try {
      await publish(ports, call);
    } catch (error) {
      logger.error(`publishing ${kind} events failed; the stream retries from the first`, describeError(error));
      if (kind === 'LimitReached') emitMetrics({ LimitReachedPublishFailures: call.length }, new Date());
      return { batchItemFailures: [{ itemIdentifier: call[0]!.sequence }] };
    }
  }
  return { batchItemFailures: stopAt !== undefined ? [{ itemIdentifier: stopAt }] : [] };
};

export const handler = createHandler({ events: eventsFromEnvironment(), store: storeFromEnvironment() });
