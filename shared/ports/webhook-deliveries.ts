import type { WebhookDelivery } from '../domain/webhooks/webhook-event';

export type { WebhookDelivery };

/** The deliveries queue: SQS when deployed, in process locally. */
export interface WebhookDeliveryQueue {
  send(deliveries: readonly WebhookDelivery[]): Promise<void>;
  /** Keeps a received message out of sight for `seconds` (the next step of the retry schedule). */
  retryAfter(receiptHandle: string, seconds: number): Promise<void>;
}

/** What one POST to a subscriber's endpoint came to. */
export type WebhookAttemptResult = { ok: true; status: number } | { ok: false; status?: number; reason: string };

/** A subscriber's endpoint, reached over HTTPS (any URL on the machine, locally). */
export interface WebhookEndpoint {
  post(request: { url: string; headers: Record<string, string>; body: string }): Promise<WebhookAttemptResult>;
}
