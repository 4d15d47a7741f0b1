import { DELIVERY_ATTEMPTS } from '../../shared/domain/webhooks/retry-schedule';

/**
 * The webhook dispatcher's queues, read by the stack and by the local server, which runs the same dispatcher on
 * queues in memory.
 */
export const WEBHOOK_QUEUES = {
  /** A batch's deliveries run side by side, each POST bounded by its 10-second timeout. */
  functionTimeoutSeconds: 60,
  /** Six times the function's timeout, as AWS advises for an SQS trigger; a failed attempt sets its own instead. */
  visibilityTimeoutSeconds: 360,
  batchSize: 10,
  /** A delivery's attempts: after the last one fails, SQS moves it to the dead-letter queue. */
  deliveryMaxReceiveCount: DELIVERY_ATTEMPTS,
  /** An event off the bus is fanned out; a failure there (the table, SQS) is retried this often. */
  eventMaxReceiveCount: 5,
  /** Containers at once per queue, so that slow endpoints cannot take all of the account's concurrency. */
  maxConcurrency: 10,
} as const;
