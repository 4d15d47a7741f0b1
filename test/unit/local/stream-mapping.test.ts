import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { afterInvocation, batchesOf, unexpired } from '../../../infra/local/stream-mapping';
import { STREAM_TRIGGER, STREAM_RETENTION_SECONDS } from '../../../shared/table/stream-trigger';

const record = (sequence: number, createdAt = 1_000): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: { SequenceNumber: String(sequence), ApproximateCreationDateTime: createdAt },
});
const records = (count: number) => Array.from({ length: count }, (_, index) => record(index + 1));
const sequences = (batch: { records: DynamoDBRecord[] }) =>
  batch.records.map((r) => Number(r.dynamodb!.SequenceNumber));
const settings = { ...STREAM_TRIGGER, batchSize: 4, retryAttempts: 2 };

describe("the local stream trigger's rules", () => {
  it('leaves a margin below the stream retention, with bounded retries', () => {
    expect(STREAM_TRIGGER.maxRecordAgeSeconds).toBeLessThanOrEqual(STREAM_RETENTION_SECONDS / 2);
    expect(STREAM_TRIGGER.retryAttempts).toBeGreaterThan(0);
    expect(STREAM_TRIGGER.retryAttempts).toBeLessThan(100);
  });

  it('hands records over in batches of the trigger size, in order', () => {
    expect(batchesOf(settings, records(10)).map(sequences)).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10],
    ]);
  });

  it('is done with a batch that reports no failure', () => {
    const next = afterInvocation(
      settings,
      'shard-1',
      { records: records(4), attempts: 0 },
      { answer: { batchItemFailures: [] } },
    );
    expect(next).toEqual({ retry: [], discarded: [] });
  });

  it('retries from the reported record, bisected, and keeps the records before it done', () => {
    const next = afterInvocation(
      settings,
      'shard-1',
      { records: records(4), attempts: 0 },
      {
        answer: { batchItemFailures: [{ itemIdentifier: '2' }] },
      },
    );
    expect(next.retry.map(sequences)).toEqual([[2, 3], [4]]);
    expect(next.retry.map((batch) => batch.attempts)).toEqual([1, 1]);
  });

  it('retries the whole batch after an error, without bisecting when the settings say so', () => {
    const next = afterInvocation(
      { ...settings, bisectBatchOnError: false },
      'shard-1',
      { records: records(3), attempts: 1 },
      {
        error: new Error('boom'),
      },
    );
    expect(next.retry).toEqual([{ records: records(3), attempts: 2 }]);
  });

  it('gives a batch up to the on-failure destination once its retries are spent, and moves on', () => {
    const next = afterInvocation(
      settings,
      'shard-1',
      { records: [record(7), record(8)], attempts: 2 },
      {
        answer: { batchItemFailures: [{ itemIdentifier: '7' }] },
      },
    );
    expect(next).toEqual({
      retry: [],
      discarded: [
        {
          reason: 'retries exhausted (2)',
          shardId: 'shard-1',
          startSequenceNumber: '7',
          endSequenceNumber: '8',
          batchSize: 2,
        },
      ],
    });
  });

  it('gives up the records older than the maximum age before handing the batch over', () => {
    const now = 1_000 + STREAM_TRIGGER.maxRecordAgeSeconds + 1;
    const { batch, discarded } = unexpired(
      settings,
      'shard-1',
      { records: [record(1), record(2, now)], attempts: 0 },
      now,
    );
    expect(batch?.records.map((r) => r.dynamodb!.SequenceNumber)).toEqual(['2']);
    expect(discarded).toMatchObject({ startSequenceNumber: '1', endSequenceNumber: '1', batchSize: 1 });
    expect(discarded!.reason).toContain('maximum record age');
  });
});
