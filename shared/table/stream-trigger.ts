/**
 * The table stream's trigger (Lambda's event source mapping that feeds history-events): the stack declares it from
 * this, and the local stream behaves as it from the same numbers.
 *
 * A record the consumer cannot decode or judge never comes back here: the consumer dead-letters it at once. What
 * the mapping retries is a transient failure (a throttled read, a publish or a dead letter not sent), so the
 * bounds are about outages, not poison:
 * - `maxRecordAgeSeconds`, 6 hours: a stream keeps a record 24 hours, and the on-failure message names the
 *   discarded records by shard and sequence numbers only. Discarding at 6 hours leaves 18 hours to read those
 *   records from the stream and replay them (docs/operations.md) before the stream trims them.
 * - `retryAttempts`, 20: with the SDK's own backed-off attempts inside each invocation, 20 invocations ride out
 *   minutes of throttling or of an EventBridge outage; a longer outage ends at the record age, in the queue, with
 *   an alarm, rather than holding the shard's later records for hours.
 */
export interface StreamTriggerSettings {
  batchSize: number;
  maxBatchingWindowSeconds: number;
  bisectBatchOnError: boolean;
  retryAttempts: number;
  maxRecordAgeSeconds: number;
  onFailure: string;
}

export const STREAM_TRIGGER = {
  batchSize: 100,
  maxBatchingWindowSeconds: 1,
  /** A failing batch is split in two and each half retried, down to the failing record. */
  bisectBatchOnError: true,
  retryAttempts: 20,
  maxRecordAgeSeconds: 6 * 3600,
  /** Where the trigger describes what it gave up on, and where the consumer sends what it cannot decode or judge. */
  onFailure: 'HistoryEventsDlq',
} as const satisfies StreamTriggerSettings;

/** The retention of a DynamoDB stream's records, which no setting changes. */
export const STREAM_RETENTION_SECONDS = 24 * 3600;

/**
 * Set (`true`) on a counter item by a delivery write that may have made a counter reach a cap, removed by one that
 * proved it did not: the trigger passes a counter write only when its new image holds it.
 */
export const NEAR_CAP_ATTRIBUTE = 'xr';
