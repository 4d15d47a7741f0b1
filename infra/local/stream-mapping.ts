import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import type { StreamTriggerSettings } from '../../shared/table/stream-trigger';

/** Records handed to the consumer together, and how many invocations have already failed on them. */
export interface StreamBatch {
  records: DynamoDBRecord[];
  attempts: number;
}

/** What the trigger sends its on-failure destination: where the records it gave up on are, and why. */
export interface DiscardedBatch {
  reason: string;
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  batchSize: number;
}

/** How an invocation ended: its answer, or the error it threw (the whole batch failed). */
export type InvocationOutcome = { answer: DynamoDBBatchResponse } | { error: unknown };

/** What comes after an invocation: the batches to retry first, in order, and what was given up. */
export interface NextBatches {
  retry: StreamBatch[];
  discarded: DiscardedBatch[];
}

const discard = (shardId: string, records: DynamoDBRecord[], reason: string): DiscardedBatch => ({
  reason,
  shardId,
  startSequenceNumber: records[0]?.dynamodb?.SequenceNumber ?? '',
  endSequenceNumber: records.at(-1)?.dynamodb?.SequenceNumber ?? '',
  batchSize: records.length,
});

/** Batches of at most `batchSize` records, in order, none tried yet. */
export const batchesOf = (settings: StreamTriggerSettings, records: readonly DynamoDBRecord[]): StreamBatch[] => {
  const batches: StreamBatch[] = [];
  for (let start = 0; start < records.length; start += settings.batchSize)
    batches.push({ records: records.slice(start, start + settings.batchSize), attempts: 0 });
  return batches;
};

/**
 * A batch before it is handed over: its records older than the maximum age are given up (as Lambda does, whether
 * they were tried or not), the rest handed over. `nowSeconds` and the records' creation times are epoch seconds.
 */
export const unexpired = (
  settings: StreamTriggerSettings,
  shardId: string,
  batch: StreamBatch,
  nowSeconds: number,
): { batch?: StreamBatch; discarded?: DiscardedBatch } => {
  const isOld = (record: DynamoDBRecord) =>
    nowSeconds - (record.dynamodb?.ApproximateCreationDateTime ?? nowSeconds) > settings.maxRecordAgeSeconds;
  const old = batch.records.filter(isOld);
  const kept = batch.records.filter((record) => !isOld(record));
  return {
    ...(kept.length > 0 ? { batch: { ...batch, records: kept } } : {}),
    ...(old.length > 0
      ? { discarded: discard(shardId, old, `older than the maximum record age (${settings.maxRecordAgeSeconds} s)`) }
      : {}),
  };
};

/** The records from the one the answer names on (all of them after an error); none when everything succeeded. */
const failedRecords = (batch: StreamBatch, outcome: InvocationOutcome): DynamoDBRecord[] => {
  if ('error' in outcome) return batch.records;
  const failed = outcome.answer.batchItemFailures[0]?.itemIdentifier;
  if (failed === undefined) return [];
  const from = batch.records.findIndex((record) => record.dynamodb?.SequenceNumber === failed);
  // an identifier naming no record of the batch fails the whole batch, as Lambda treats it
  return batch.records.slice(Math.max(from, 0));
};

/**
 * Lambda's rules for a stream trigger after one invocation: the records before the first failure are done; the
 * rest are retried, split in two first when bisecting (each half retried on its own, the first one first), until
 * they have failed `retryAttempts` times more than once, when they go to the on-failure destination and the shard
 * moves on.
 */
export const afterInvocation = (
  settings: StreamTriggerSettings,
  shardId: string,
  batch: StreamBatch,
  outcome: InvocationOutcome,
): NextBatches => {
  const failed = failedRecords(batch, outcome);
  if (failed.length === 0) return { retry: [], discarded: [] };
  const attempts = batch.attempts + 1;
  if (attempts > settings.retryAttempts)
    return { retry: [], discarded: [discard(shardId, failed, `retries exhausted (${settings.retryAttempts})`)] };
  if (!settings.bisectBatchOnError || failed.length === 1)
    return { retry: [{ records: failed, attempts }], discarded: [] };
  const half = Math.ceil(failed.length / 2);
  return {
    retry: [
      { records: failed.slice(0, half), attempts },
      { records: failed.slice(half), attempts },
    ],
    discarded: [],
  };
};

/**
 * Hands a shard's waiting batches (retries first) to `invoke` in order, by the rules above, until one fails: it
 * stays first in `batches` for the next drain, and the answer is false. True when the shard has nothing waiting.
 */
export const handOver = async (
  settings: StreamTriggerSettings,
  shard: { id: string; batches: StreamBatch[] },
  consumer: {
    invoke: (batch: StreamBatch) => Promise<InvocationOutcome>;
    onFailure: (discarded: DiscardedBatch) => void;
    nowSeconds: number;
  },
): Promise<boolean> => {
  const { invoke, onFailure, nowSeconds } = consumer;
  while (shard.batches.length > 0) {
    const { batch, discarded } = unexpired(settings, shard.id, shard.batches.shift()!, nowSeconds);
    if (discarded) onFailure(discarded);
    if (!batch) continue;
    const next = afterInvocation(settings, shard.id, batch, await invoke(batch));
    next.discarded.forEach(onFailure);
    shard.batches.unshift(...next.retry);
    if (next.retry.length > 0) return false;
  }
  return true;
};
