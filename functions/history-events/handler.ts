import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { limitReachedOf } from '../../shared/adapters/dynamodb/counter-stream';
import { limitChangedOf } from '../../shared/adapters/dynamodb/history-stream';
import type { LimitReached } from '../../shared/domain/delivery/limit-reached';
import type { LimitChanged } from '../../shared/domain/history/limit-changed';
import { describeError, logger } from '../../shared/observability/logger';
import { emitMetrics } from '../../shared/observability/metrics';
import { eventsFromEnvironment, type Ports } from '../../shared/runtime/dependencies';

/** EventBridge takes 10 entries per call. */
const EVENTS_PER_CALL = 10;

type Outgoing =
  | { kind: 'LimitChanged'; event: LimitChanged; sequence: string }
  | { kind: 'LimitReached'; event: LimitReached; sequence: string };

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
 * The table stream's consumer: every new history entry becomes a LimitChanged event, and every counter write that
 * made a counter reach a cap it stored becomes a LimitReached event, in stream order. When a call fails, the
 * answer names the first record it carried: Lambda retries the stream from there, so each event is published at
 * least once (consumers drop repeats by `changeId` and `id`). A failed LimitReached call is counted in the metric
 * `LimitReachedPublishFailures`.
 */
export const createHandler =
  ({ events }: Ports<'events'>) =>
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const outgoing = event.Records.flatMap((record): Outgoing[] => {
      const sequence = record.dynamodb?.SequenceNumber ?? '';
      const change = limitChangedOf(record);
      if (change) return [{ kind: 'LimitChanged', event: change, sequence }];
      return limitReachedOf(record).map((reached) => ({ kind: 'LimitReached', event: reached, sequence }));
    });
    for (const call of callsOf(outgoing)) {
      const kind = call[0]!.kind;
      try {
        if (kind === 'LimitChanged') await events.publishLimitChanged(call.map((item) => item.event as LimitChanged));
        else await events.publishLimitReached(call.map((item) => item.event as LimitReached));
      } catch (error) {
        logger.error(`publishing ${kind} events failed; the stream retries from the first`, describeError(error));
        if (kind === 'LimitReached') emitMetrics({ LimitReachedPublishFailures: call.length }, new Date());
        return { batchItemFailures: [{ itemIdentifier: call[0]!.sequence }] };
      }
    }
    return { batchItemFailures: [] };
  };

export const handler = createHandler({ events: eventsFromEnvironment() });
