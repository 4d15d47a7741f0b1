/**
 * The Standard Webhooks schedule: after the first attempt, retries 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h
 * later (27 h 35 min 5 s in all), then the delivery is dead-lettered.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;

/** Attempts of one delivery: the first and one per retry (the deliveries queue's maxReceiveCount). */
export const DELIVERY_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** How long to wait after failed attempt `attempt` (1-based, SQS's receive count); undefined after the last one. */
export const retryDelaySeconds = (attempt: number): number | undefined =>
  RETRY_DELAYS_SECONDS[Math.max(attempt, 1) - 1];
