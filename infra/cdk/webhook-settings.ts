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
  /** An event off the bus is fanned out; a failure there (the table, SQS) is retried this often. */
  eventMaxReceiveCount: 5,
} as const;

/**
 * The two lanes of deliveries (`shared/webhooks/deliver.ts`), their receives before SQS dead-letters a message. The
 * fast lane calls only subscriptions whose last attempt succeeded and never retries in place: a failed attempt moves
 * to the slow lane, so a message there is received again only after a failure of the service's own (the table,
 * SQS). The slow lane holds the failing subscriptions and every retry; it counts attempts itself and dead-letters the
 * last, its receives leaving room for failures of the service's own. Each lane's containers are its own, sized from
 * the load (`infra/cdk/push-path.ts`): a receiver that never answers fills only the slow lane's.
 */
export const WEBHOOK_LANES = {
  fast: { maxReceiveCount: 5 },
  slow: { maxReceiveCount: DELIVERY_ATTEMPTS + 5 },
} as const;
