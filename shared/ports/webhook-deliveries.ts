import type { WebhookDelivery } from '../domain/webhooks/webhook-event';

export type { WebhookDelivery };

/** A deliveries queue (a lane): SQS when deployed, in process locally. */
export interface WebhookDeliveryQueue {
  /** Sends deliveries, each out of sight for `delaySeconds` first (at most 900, SQS's bound). */
  send(deliveries: readonly WebhookDelivery[], delaySeconds?: number): Promise<void>;
  /** Keeps a received message out of sight for `seconds` (the next step of the retry schedule). */
  retryAfter(receiptHandle: string, seconds: number): Promise<void>;
  /** Whether a received message came from this queue (Lambda names the queue in each record's `eventSourceARN`). */
  carries(record: { eventSourceARN?: string }): boolean;
}

/** What one POST to a subscriber's endpoint came to. */
export type WebhookAttemptResult = { ok: true; status: number } | { ok: false; status?: number; reason: string };

/** A subscriber's endpoint, reached over HTTPS (any URL on the machine, locally). */
export interface WebhookEndpoint {
  post(request: { url: string; headers: Record<string, string>; body: string }): Promise<WebhookAttemptResult>;
}
