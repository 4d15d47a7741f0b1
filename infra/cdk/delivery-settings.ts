/**
 * The delivery queue and its trigger, in one place: the stack builds them from these numbers and the capacity
 * simulation (`npm run simulate`) models them from the same ones.
 */
export const DELIVERY_QUEUE = {
  /** Messages a recorder invocation takes (a FIFO source takes at most 10, with no batching window). */
  batchSize: 10,
  /** Six times the recorder's 60-second timeout, as AWS advises for a queue that triggers a function. */
  visibilityTimeoutSeconds: 360,
  /** Receives before SQS moves a message to the dead-letter queue. */
  maxReceiveCount: 5,
} as const;

/** Events one recorder records a second (measured: a batch of 10,000 events takes about 0.5 s; docs/capacity.md). */
export const RECORDER_EVENTS_PER_SECOND = 20_000;
