import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import {
  limitReachedOf,
  limitReachedOnSum,
  markReachedTold,
  shardedEntityOf,
} from '../../shared/adapters/dynamodb/counter-stream';
import type { TableStore } from '../../shared/adapters/dynamodb/table-store';
import { isNewHistoryEntry, limitChangedOf } from '../../shared/adapters/dynamodb/history-stream';
import { isCounterChange } from '../../shared/adapters/dynamodb/counter-stream';
import type { LimitReached } from '../../shared/domain/delivery/limit-reached';
import type { LimitChanged } from '../../shared/domain/history/limit-changed';
import { describeError, logger } from '../../shared/observability/logger';
import { emitMetrics } from '../../shared/observability/metrics';
import type { Ports } from '../../shared/runtime/dependencies';
import { deadLetterBody, rejectionReason, type RejectedRecord } from './rejected-records';

type HandlerPorts = Ports<'events' | 'store' | 'deadLetters'>;

/** EventBridge takes 10 entries per call. */
const EVENTS_PER_CALL = 10;

type Outgoing =
  | { kind: 'LimitChanged'; event: LimitChanged; sequence: string }
  | { kind: 'LimitReached'; event: LimitReached; sequence: string; onSum?: boolean }
  | { kind: 'DeadLetter'; event: RejectedRecord; sequence: string };

/** A record's own events, decided from the record alone (no I/O): what throws here can never succeed on a retry. */
const judged = (record: DynamoDBRecord): Outgoing[] | RejectedRecord => {
  const sequence = record.dynamodb?.SequenceNumber ?? '';
  try {
    const change = limitChangedOf(record);
    const reached = limitReachedOf(record);
    return [
      ...(change ? [{ kind: 'LimitChanged' as const, event: change, sequence }] : []),
      ...reached.map((event) => ({ kind: 'LimitReached' as const, event, sequence })),
    ];
  } catch (error) {
    return { record, reason: rejectionReason(error) };
  }
};

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
 * The batch's events in stream order: a history entry's LimitChanged, an unsharded counter write's LimitReached, a
 * sharded entity's LimitReached on the sum, judged once for all its records (at the place of its last one), and a
 * dead letter for each record that cannot be decoded or judged (it takes no part in a sum).
 */
const outgoingOf = async (store: TableStore, records: readonly DynamoDBRecord[]): Promise<Outgoing[]> => {
  const own = records
    .filter((record) => isNewHistoryEntry(record) || isCounterChange(record))
    .map((record) => ({ record, judgement: judged(record) }));
  const sharded = new Map<string, DynamoDBRecord[]>();
  for (const { record, judgement } of own) {
    const entity = Array.isArray(judgement) ? shardedEntityOf(record) : undefined;
    if (entity !== undefined) sharded.set(entity, [...(sharded.get(entity) ?? []), record]);
  }
  const outgoing: Outgoing[] = [];
  for (const { record, judgement } of own) {
    const sequence = record.dynamodb?.SequenceNumber ?? '';
    if (!Array.isArray(judgement)) {
      outgoing.push({ kind: 'DeadLetter', event: judgement, sequence });
      continue;
    }
    outgoing.push(...judgement);
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

const publish = async ({ events, store, deadLetters }: HandlerPorts, call: readonly Outgoing[]) => {
  if (call[0]!.kind === 'DeadLetter') {
    for (const { event } of call as Extract<Outgoing, { kind: 'DeadLetter' }>[]) {
      logger.error('a stream record cannot be decoded or judged; it goes to the dead-letter queue', {
        sequence: event.record.dynamodb?.SequenceNumber,
        reason: event.reason,
      });
      await deadLetters.send(deadLetterBody(event.record), event.reason);
    }
    emitMetrics({ StreamRecordsRejected: call.length }, new Date());
    return;
  }
  if (call[0]!.kind === 'LimitChanged')
    return events.publishLimitChanged(call.map((item) => item.event as LimitChanged));
  await events.publishLimitReached(call.map((item) => item.event as LimitReached));
  const onSum = call.flatMap((item) => (item.kind === 'LimitReached' && item.onSum ? [item.event] : []));
  if (onSum.length > 0) await markReachedTold(store, onSum, new Date());
};

/**
 * The table stream's consumer: every new history entry becomes a LimitChanged event, and every counter write that
 * made a counter reach a cap it stored becomes a LimitReached event (for a sharded entity: the sum of its shards,
 * read then), in stream order. A record that cannot be decoded or judged goes to the dead-letter queue at once, with
 * its reason (counted in the metric `StreamRecordsRejected`), and the shard moves on. Only a transient failure (a
 * read of the shards, a publish, a dead letter not sent) is handed back: the answer names the first record of the
 * failed call, and Lambda retries the stream from there, so each event is published at least once (consumers drop
 * repeats by `changeId` and `id`). A failed LimitReached call is counted in the metric `LimitReachedPublishFailures`.
 */
export const createHandler =
  (ports: HandlerPorts) =>
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
const published = async (ports: HandlerPorts, outgoing: readonly Outgoing[]): Promise<DynamoDBBatchResponse> => {
  for (const call of callsOf(outgoing)) {
    const kind = call[0]!.kind;
    try {
      await publish(ports, call);
    } catch (error) {
      logger.error(`sending ${kind} failed; the stream retries from the first`, describeError(error));
      if (kind === 'LimitReached') emitMetrics({ LimitReachedPublishFailures: call.length }, new Date());
      return { batchItemFailures: [{ itemIdentifier: earliest(call.map((item) => item.sequence)) }] };
    }
  }
  return { batchItemFailures: [] };
};
